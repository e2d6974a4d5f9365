// The operations of /v1/approval_requests/{id}/decline (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { ApprovalRequestObject, DecideApprovalBody } from "@/lib/approvals/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "declineApprovalRequest",
  summary: "Decline a request: nothing is charged (the payer's key)",
  tag: "Approval requests",
  auth: "secret",
  permission: ["approval_requests", "write"],
  body: DecideApprovalBody,
  responses: { 200: ApprovalRequestObject },
  sdk: {
    resource: "approvalRequests",
    method: "decline",
    ids: "approvalRequestId",
    doc: "The PAYER declines: the waiting checkout is canceled and nothing is charged.",
  },
});
