// The operations of /v1/approval_requests/{id}/approve (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { ApprovalRequestObject, DecideApprovalBody } from "@/lib/approvals/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "approveApprovalRequest",
  summary: "Approve a request: its charge is captured once (the payer's key)",
  tag: "Approval requests",
  auth: "secret",
  permission: ["approval_requests", "write"],
  body: DecideApprovalBody,
  responses: { 200: ApprovalRequestObject },
  sdk: {
    resource: "approvalRequests",
    method: "approve",
    ids: "approvalRequestId",
    doc: "The PAYER approves: the waiting charge is captured once; approving again returns the approved request.",
  },
});
