// The operations of /v1/events/stream (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { EventStreamQuery } from "@/lib/events/schemas";
import { EVENT_STREAM, operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "streamEvents",
  summary: "Server-sent events of the key's merchant and mode (each `data:` line is a ServiceEvent)",
  tag: "Events",
  auth: "secret",
  permission: ["events", "read"],
  query: EventStreamQuery,
  responses: { 200: EVENT_STREAM },
});
