// The operations of /v1/webhook-endpoints/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { DeletedWebhookEndpoint, UpdateEndpointBody, WebhookEndpointObject } from "@/lib/webhooks/schemas";

export const GET = operation({
  operationId: "getWebhookEndpoint",
  summary: "Retrieve a webhook endpoint",
  tag: "Webhooks",
  auth: "secret",
  permission: ["webhook_endpoints", "read"],
  responses: { 200: WebhookEndpointObject },
  sdk: { resource: "webhookEndpoints", method: "retrieve", ids: "endpointId" },
});

export const PATCH = operation({
  operationId: "updateWebhookEndpoint",
  summary: "Update a webhook endpoint",
  tag: "Webhooks",
  auth: "secret",
  permission: ["webhook_endpoints", "write"],
  body: UpdateEndpointBody,
  bodyName: "UpdateWebhookEndpointParams",
  responses: { 200: WebhookEndpointObject },
  sdk: { resource: "webhookEndpoints", method: "update", ids: "endpointId" },
});

export const DELETE = operation({
  operationId: "deleteWebhookEndpoint",
  summary: "Delete a webhook endpoint",
  tag: "Webhooks",
  auth: "secret",
  permission: ["webhook_endpoints", "write"],
  responses: { 200: DeletedWebhookEndpoint },
  sdk: { resource: "webhookEndpoints", method: "del", ids: "endpointId" },
});
