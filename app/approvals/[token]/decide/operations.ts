// The operations of /approvals/{token}/decide (lib/openapi/operation.ts): what the OpenAPI document says of them. The
// route reads its own form body (the mailed link's page posts it; docs/approvals.md).
import { documented } from "@/lib/openapi/operation";

export const POST = documented({
  operationId: "decideApprovalRequestByLink",
  summary: "Approve or decline by the mailed link (form field decision=approve|decline; the link works once)",
  tag: "Approval requests",
  auth: "public",
  responses: { 303: { description: "Decided: back to the link's page, which shows the outcome" } },
  errors: {
    description: "Plain text: 400 without a decision, 410 for a used, decided or expired link, 409 otherwise",
    contentType: "text/plain",
  },
});
