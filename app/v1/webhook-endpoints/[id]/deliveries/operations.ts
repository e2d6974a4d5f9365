// The operations of /v1/webhook-endpoints/{id}/deliveries (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { ListDeliveriesQuery, WebhookDeliveryAttemptList } from "@/lib/webhooks/schemas";

export const GET = operation({
  operationId: "listWebhookDeliveryAttempts",
  summary: "List an endpoint's delivery attempts",
  tag: "Webhooks",
  auth: "secret",
  permission: ["webhook_endpoints", "read"],
  query: ListDeliveriesQuery,
  responses: { 200: WebhookDeliveryAttemptList },
  sdk: { resource: "webhookEndpoints", method: "listDeliveries", ids: "endpointId", params: "params?: T.ListParams" },
});
