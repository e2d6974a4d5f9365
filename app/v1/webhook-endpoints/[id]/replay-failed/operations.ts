// The operations of /v1/webhook-endpoints/{id}/replay-failed (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { ReplayFailedBody, WebhookReplayObject } from "@/lib/webhooks/schemas";

export const POST = operation({
  operationId: "replayFailedWebhookDeliveries",
  summary: "Queue again every failed delivery since a time",
  tag: "Webhooks",
  auth: "secret",
  permission: ["webhook_endpoints", "write"],
  body: ReplayFailedBody,
  bodyName: "ReplayFailedDeliveriesParams",
  responses: { 200: WebhookReplayObject },
  sdk: {
    resource: "webhookEndpoints",
    method: "replayFailed",
    ids: "endpointId",
    params: "params: T.ReplayFailedDeliveriesParams = {}",
    doc: "Queues again every failed delivery since a time.",
  },
});
