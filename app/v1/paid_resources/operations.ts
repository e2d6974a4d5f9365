// The operations of /v1/paid_resources (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { CreatePaidResourceBody, ListPaidResourcesQuery, PaidResourceList, PaidResourceObject } from "@/lib/paid-resources/schemas";

export const POST = operation({
  operationId: "createPaidResource",
  summary: "Create a paid resource",
  tag: "Paid resources",
  auth: "secret",
  permission: ["paid_resources", "write"],
  body: CreatePaidResourceBody,
  status: 201,
  bodyName: "CreatePaidResourceParams",
  responses: { 201: PaidResourceObject },
  sdk: {
    resource: "paidResources",
    method: "create",
    doc: "A hosted paid resource (xr_): served publicly at its x402Url and mppUrl; `url` (forward) or `content` (JSON).",
  },
});

export const GET = operation({
  operationId: "listPaidResources",
  summary: "List paid resources",
  tag: "Paid resources",
  auth: "secret",
  permission: ["paid_resources", "read"],
  query: ListPaidResourcesQuery,
  responses: { 200: PaidResourceList },
  sdk: { resource: "paidResources", method: "list", params: "params?: T.ListPaidResourcesParams" },
});
