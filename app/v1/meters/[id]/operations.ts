// The operations of /v1/meters/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { MeterObject } from "@/lib/meters/schemas";
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getMeter",
  summary: "Retrieve a meter",
  tag: "Meters",
  auth: "secret",
  permission: ["meters", "read"],
  responses: { 200: MeterObject },
  sdk: { resource: "meters", method: "retrieve" },
});
