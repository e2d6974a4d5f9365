// The operations of /v1/webhook-endpoints (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { CreateEndpointBody, ListEndpointsQuery, WebhookEndpointList, WebhookEndpointObject } from "@/lib/webhooks/schemas";

export const POST = operation({
  operationId: "createWebhookEndpoint",
  summary: "Create a webhook endpoint (its secret is in this answer only)",
  tag: "Webhooks",
  auth: "secret",
  permission: ["webhook_endpoints", "write"],
  body: CreateEndpointBody,
  status: 201,
  secretInResponse: true,
  bodyName: "CreateWebhookEndpointParams",
  responses: { 201: WebhookEndpointObject },
  sdk: { resource: "webhookEndpoints", method: "create" },
});

export const GET = operation({
  operationId: "listWebhookEndpoints",
  summary: "List webhook endpoints",
  tag: "Webhooks",
  auth: "secret",
  permission: ["webhook_endpoints", "read"],
  query: ListEndpointsQuery,
  responses: { 200: WebhookEndpointList },
  sdk: { resource: "webhookEndpoints", method: "list", params: "params?: T.ListParams" },
});
