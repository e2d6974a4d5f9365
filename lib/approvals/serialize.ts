import type { ApprovalRequest } from "../generated/prisma/client";
import type { ApprovalRequestView, ApprovalStatus, DecidedVia } from "./schemas";

export function serializeApprovalRequest(row: ApprovalRequest): ApprovalRequestView {
  return {
    id: row.id,
    object: "approval_request",
    status: row.status as ApprovalStatus,
    spendingAgentId: row.spendingAgentId,
    merchantId: row.payeeMerchantId,
    checkoutId: row.checkoutId,
    sharedPaymentTokenId: row.sharedPaymentTokenId,
    protocol: row.protocol,
    acpCheckoutSessionId: row.acpCheckoutSessionId,
    a2aTaskId: row.a2aTaskId,
    amount: row.amount,
    currency: row.currency,
    approvalThreshold: row.approvalThreshold,
    paymentIntentId: row.paymentIntentId,
    decidedVia: row.decidedVia as DecidedVia | null,
    livemode: row.livemode,
    expiresAt: row.expiresAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    x402Authorization: row.x402Authorization,
    paidResourceId: row.paidResourceId,
  };
}
