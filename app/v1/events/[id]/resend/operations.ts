// The operations of /v1/events/{id}/resend (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { EventResendObject, ResendEventBody } from "@/lib/webhooks/schemas";

export const POST = operation({
  operationId: "resendEvent",
  summary: "Queue an event's delivery again",
  tag: "Events",
  auth: "secret",
  permission: ["events", "write"],
  body: ResendEventBody,
  bodyName: "ResendEventParams",
  responses: { 200: EventResendObject },
  sdk: { resource: "events", method: "resend", params: "", body: "{}" },
});
