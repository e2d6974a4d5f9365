// The operations of /v1/disputes/{id}/close (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { DisputeObject } from "@/lib/disputes/schemas";

export const POST = operation({
  operationId: "closeDispute",
  summary: "Accept a dispute (it is lost), or close an inquiry",
  tag: "Disputes",
  auth: "secret",
  permission: ["disputes", "write"],
  responses: { 200: DisputeObject },
  sdk: { resource: "disputes", method: "close" },
});
