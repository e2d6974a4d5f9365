// The operations of /v1/meters/{id}/close (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { EmptyBody, MeterObject } from "@/lib/meters/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "closeMeter",
  summary: "Close a meter (settles what is left)",
  tag: "Meters",
  auth: "secret",
  permission: ["meters", "write"],
  body: EmptyBody,
  responses: { 200: MeterObject },
  sdk: { resource: "meters", method: "close", doc: "Settles what has accrued." },
});
