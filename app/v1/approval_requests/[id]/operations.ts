// The operations of /v1/approval_requests/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { ApprovalRequestObject } from "@/lib/approvals/schemas";
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getApprovalRequest",
  summary: "Retrieve an approval request",
  tag: "Approval requests",
  auth: "secret",
  permission: ["approval_requests", "read"],
  responses: { 200: ApprovalRequestObject },
  sdk: { resource: "approvalRequests", method: "retrieve" },
});
