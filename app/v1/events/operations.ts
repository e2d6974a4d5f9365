// The operations of /v1/events (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { ListEventsQuery, ServiceEventList } from "@/lib/events/schemas";
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "listEvents",
  summary: "List events",
  tag: "Events",
  auth: "secret",
  permission: ["events", "read"],
  query: ListEventsQuery,
  responses: { 200: ServiceEventList },
  sdk: { resource: "events", method: "list", params: "params?: T.ListEventsParams" },
});
