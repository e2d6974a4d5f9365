// The operations of /v1/shared_payment_tokens/{id}/revoke (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { RevokeTokenBody, SharedPaymentTokenObject } from "@/lib/shared-payment-tokens/schemas";

export const POST = operation({
  operationId: "revokeSharedPaymentToken",
  summary: "Revoke a token (the payer's key)",
  tag: "Shared payment tokens",
  auth: "secret",
  permission: ["shared_payment_tokens", "write"],
  body: RevokeTokenBody,
  responses: { 200: SharedPaymentTokenObject },
  sdk: { resource: "sharedPaymentTokens", method: "revoke", ids: "tokenId" },
});
