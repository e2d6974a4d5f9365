// The documented 402 of a route whose charge can wait for the payer's approval (docs/approvals.md): the error
// contract's body (every 402 is PAYMENT_DECLINED: a refusal, details.reason naming why) and, when the reason is
// `approval_pending`, the pending request in its details, as ApprovalPendingError
// (lib/shared-payment-tokens/await-approval.ts) answers it. Such routes list it under responses[402] in operations.ts.
import { z } from "zod";
import { Timestamp } from "../validation/objects";

export const PaymentDeclinedOrPendingBody = z
  .object({
    error: z.object({
      code: z.literal("PAYMENT_DECLINED"),
      message: z.string(),
      details: z
        .object({
          /** Why: a refusal's rule or decline, or `approval_pending` (the charge waits; nothing charged yet). */
          reason: z.string().optional(),
          /** approval_pending: the approval request (apr_) the charge waits for, GET /v1/approval_requests/:id. */
          approvalRequestId: z.string().optional(),
          /** approval_pending: past it, the request expires and nothing is charged. */
          expiresAt: Timestamp.optional(),
        })
        .loose(),
    }),
  })
  .meta({
    id: "PaymentDeclinedOrPending",
    description:
      "PAYMENT_DECLINED: refused (details.reason), or with details.reason `approval_pending` waiting for the payer's approval (approvalRequestId, expiresAt); nothing was charged (docs/approvals.md)",
  });
