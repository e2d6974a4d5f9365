// The operations of /v1/payment_intents/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { PaymentIntentObject } from "@/lib/payments/schemas";

export const GET = operation({
  operationId: "getPaymentIntent",
  summary: "Retrieve a PaymentIntent",
  tag: "PaymentIntents",
  auth: "secret",
  permission: ["payment_intents", "read"],
  responses: { 200: PaymentIntentObject },
  sdk: { resource: "paymentIntents", method: "retrieve" },
});
