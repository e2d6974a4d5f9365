// The operations of /v1/payment_intents (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { ListPaymentIntentsQuery, PaymentIntentList } from "@/lib/payments/schemas";

export const GET = operation({
  operationId: "listPaymentIntents",
  summary: "List PaymentIntents",
  tag: "PaymentIntents",
  auth: "secret",
  permission: ["payment_intents", "read"],
  query: ListPaymentIntentsQuery,
  responses: { 200: PaymentIntentList },
  sdk: { resource: "paymentIntents", method: "list", params: "params?: T.ListPaymentIntentsParams" },
});
