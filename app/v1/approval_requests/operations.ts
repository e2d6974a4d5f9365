// The operations of /v1/approval_requests (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { ApprovalRequestList, ListApprovalRequestsQuery } from "@/lib/approvals/schemas";
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "listApprovalRequests",
  summary: "List the payer's approval requests",
  tag: "Approval requests",
  auth: "secret",
  permission: ["approval_requests", "read"],
  query: ListApprovalRequestsQuery,
  responses: { 200: ApprovalRequestList },
  sdk: { resource: "approvalRequests", method: "list", params: "params?: T.ListApprovalRequestsParams" },
});
