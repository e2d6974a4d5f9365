// The operations of /v1/paid_resources/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { PaidResourceObject, UpdatePaidResourceBody } from "@/lib/paid-resources/schemas";

export const GET = operation({
  operationId: "getPaidResource",
  summary: "Retrieve a paid resource",
  tag: "Paid resources",
  auth: "secret",
  permission: ["paid_resources", "read"],
  responses: { 200: PaidResourceObject },
  sdk: { resource: "paidResources", method: "retrieve", ids: "resourceId" },
});

export const POST = operation({
  operationId: "updatePaidResource",
  summary: "Update a paid resource",
  tag: "Paid resources",
  auth: "secret",
  permission: ["paid_resources", "write"],
  body: UpdatePaidResourceBody,
  bodyName: "UpdatePaidResourceParams",
  responses: { 200: PaidResourceObject },
  sdk: { resource: "paidResources", method: "update", ids: "resourceId" },
});

export const DELETE = operation({
  operationId: "archivePaidResource",
  summary: "Archive a paid resource (active: false)",
  tag: "Paid resources",
  auth: "secret",
  permission: ["paid_resources", "write"],
  responses: { 200: PaidResourceObject },
  sdk: {
    resource: "paidResources",
    method: "archive",
    ids: "resourceId",
    doc: "Archives the resource (`active: false`): no longer served; its sales stay.",
  },
});
