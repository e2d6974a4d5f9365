// The operations of /v1/webhook-endpoints/{id}/rotate-secret (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { RotateSecretBody, WebhookEndpointObject } from "@/lib/webhooks/schemas";

export const POST = operation({
  operationId: "rotateWebhookEndpointSecret",
  summary: "Rotate the signing secret (the new one is in this answer only)",
  tag: "Webhooks",
  auth: "secret",
  permission: ["webhook_endpoints", "write"],
  body: RotateSecretBody,
  secretInResponse: true,
  bodyName: "RotateWebhookSecretParams",
  responses: { 200: WebhookEndpointObject },
  sdk: {
    resource: "webhookEndpoints",
    method: "rotateSecret",
    ids: "endpointId",
    params: "",
    body: "{}",
    doc: "Returns the endpoint with its new `secret`; the old secret keeps signing beside it for 24 h.",
  },
});
