// The operations of /v1/integrations/rail/disputes (lib/openapi/operation.ts): its OpenAPI entry.
import { RailDisputeEvent, RailDisputeWebhookResult } from "@/lib/integrations/schemas";
import { documented } from "@/lib/openapi/operation";

export const POST = documented({
  operationId: "receiveRailDisputeWebhook",
  summary: "Inbound dispute webhook of the live rail's provider (opened, decided), signed in X-Service-Signature",
  tag: "Disputes",
  auth: {
    kind: "signature",
    header: "X-Service-Signature",
    description: "t=<unix>,v1=<hex HMAC-SHA256> (the test rail: WALLET_WEBHOOK_SECRET)",
  },
  body: RailDisputeEvent,
  bodyName: "RailDisputeEvent",
  responses: { 200: RailDisputeWebhookResult },
});
