// The operations of /v1/shared_payment_tokens/{id}/redeem (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { PaymentDeclinedOrPendingBody } from "@/lib/approvals/pending-error-schema";
import { operation } from "@/lib/openapi/operation";
import { PaymentIntentObject } from "@/lib/payments/schemas";
import { RedeemTokenBody } from "@/lib/shared-payment-tokens/schemas";

export const POST = operation({
  operationId: "redeemSharedPaymentToken",
  summary: "Charge a token once (the merchant's key); answers the captured PaymentIntent",
  tag: "Shared payment tokens",
  auth: "secret",
  permission: ["shared_payment_tokens", "write"],
  body: RedeemTokenBody,
  status: 201,
  bodyName: "RedeemSharedPaymentTokenParams",
  // 402 approval_pending: above the token's spending agent's approval threshold, the charge waits (docs/approvals.md).
  responses: { 201: PaymentIntentObject, 402: PaymentDeclinedOrPendingBody },
  sdk: {
    resource: "sharedPaymentTokens",
    method: "redeem",
    ids: "tokenId",
    doc: 'The MERCHANT charges the token once: the captured PaymentIntent (`source: "spt"`).',
  },
});
