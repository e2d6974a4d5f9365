// The operations of /v1/disputes (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { DisputeList, ListDisputesQuery } from "@/lib/disputes/schemas";

export const GET = operation({
  operationId: "listDisputes",
  summary: "List disputes",
  tag: "Disputes",
  auth: "secret",
  permission: ["disputes", "read"],
  query: ListDisputesQuery,
  responses: { 200: DisputeList },
  sdk: { resource: "disputes", method: "list", params: "params?: T.ListDisputesParams" },
});
