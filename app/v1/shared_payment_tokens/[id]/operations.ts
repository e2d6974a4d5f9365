// The operations of /v1/shared_payment_tokens/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { SharedPaymentTokenObject } from "@/lib/shared-payment-tokens/schemas";

export const GET = operation({
  operationId: "getSharedPaymentToken",
  summary: "Retrieve one of the payer's tokens",
  tag: "Shared payment tokens",
  auth: "secret",
  permission: ["shared_payment_tokens", "read"],
  responses: { 200: SharedPaymentTokenObject },
  sdk: { resource: "sharedPaymentTokens", method: "retrieve", ids: "tokenId" },
});
