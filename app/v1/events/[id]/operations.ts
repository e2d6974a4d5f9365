// The operations of /v1/events/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { ServiceEventObject } from "@/lib/events/schemas";
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getEvent",
  summary: "Retrieve an event",
  tag: "Events",
  auth: "secret",
  permission: ["events", "read"],
  responses: { 200: ServiceEventObject },
  sdk: { resource: "events", method: "retrieve" },
});
