// The operations of /v1/paywall/redemptions (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { PaywallRedemptionResult, RedeemPaymentBody } from "@/lib/paywall/schemas";

export const POST = operation({
  operationId: "redeemPaywallPayment",
  summary: "Consume a payment once (with the terms: verify first); 201 redeemed now, 200 otherwise",
  tag: "Paywall",
  auth: "secret",
  permission: ["paywall", "write"],
  body: RedeemPaymentBody,
  idempotent: false,
  transaction: false,
  db: "sql",
  bodyName: "PaywallRedeemParams",
  responses: { 201: PaywallRedemptionResult, 200: PaywallRedemptionResult },
  sdk: [
    {
      resource: "paywall",
      method: "redeem",
      params: "paymentIntentId: string",
      body: "{ paymentIntentId }",
      returns: "T.PaywallRedemptionResult",
      doc: "Atomic first-redemption-wins (merchant key): `{ redeemed: true }` once, then `already_redeemed`.",
    },
    {
      resource: "paywall",
      method: "verifyAndRedeem",
      params: "params: T.PaywallVerifyParams",
      returns: "T.PaywallVerifiedRedemptionResult",
      doc: "Verify and redeem in ONE request (merchant key): redeemed only when the PaymentIntent pays these terms; otherwise `{ redeemed: false, valid: false, reasonCode }` and nothing is consumed.",
    },
  ],
});
