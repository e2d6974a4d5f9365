// The operations of /v1/webhook-endpoints/{id}/health (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { WebhookEndpointHealthObject } from "@/lib/webhooks/schemas";

export const GET = operation({
  operationId: "getWebhookEndpointHealth",
  summary: "An endpoint's success rate and latency over 24 hours",
  tag: "Webhooks",
  auth: "secret",
  permission: ["webhook_endpoints", "read"],
  responses: { 200: WebhookEndpointHealthObject },
  sdk: { resource: "webhookEndpoints", method: "health", ids: "endpointId", doc: "The endpoint's success rate and latency over 24 hours." },
});
