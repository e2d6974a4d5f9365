// The operations of /v1/disputes/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { DisputeObject, UpdateDisputeBody } from "@/lib/disputes/schemas";

export const GET = operation({
  operationId: "getDispute",
  summary: "Retrieve a dispute",
  tag: "Disputes",
  auth: "secret",
  permission: ["disputes", "read"],
  responses: { 200: DisputeObject },
  sdk: { resource: "disputes", method: "retrieve" },
});

export const POST = operation({
  operationId: "updateDispute",
  summary: "Give a dispute evidence, and submit it (`submit: true`)",
  tag: "Disputes",
  auth: "secret",
  permission: ["disputes", "write"],
  body: UpdateDisputeBody,
  bodyName: "UpdateDisputeParams",
  responses: { 200: DisputeObject },
  sdk: { resource: "disputes", method: "update" },
});
