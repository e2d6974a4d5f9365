// The operations of /v1/payment_intents/{id}/receipt (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { ReceiptObject } from "@/lib/receipts/schemas";

export const GET = operation({
  operationId: "getPaymentIntentReceipt",
  summary: "The signed receipt of a captured PaymentIntent (a compact JWS; keys at /.well-known/jwks.json)",
  tag: "Receipts",
  auth: "secret",
  permission: ["receipts", "read"],
  responses: { 200: ReceiptObject },
  sdk: { resource: "paymentIntents", method: "receipt" },
});
