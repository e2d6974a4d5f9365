import type { z } from "zod";
import type { Dispute } from "../generated/prisma/client";
import type { DisputeObject } from "./schemas";
import type { DisputeStatus } from "./transitions";

export function serializeDispute(dispute: Dispute) {
  return {
    id: dispute.id,
    object: "dispute" as const,
    status: dispute.status as DisputeStatus,
    reason: dispute.reason,
    amount: dispute.amount,
    currency: dispute.currency,
    fee: dispute.fee,
    paymentIntentId: dispute.paymentIntentId,
    isInquiry: dispute.status.startsWith("warning_"),
    evidence: (dispute.evidence ?? {}) as Record<string, string>,
    evidenceDueBy: dispute.evidenceDueBy.toISOString(),
    evidenceSubmittedAt: dispute.evidenceSubmittedAt?.toISOString() ?? null,
    closedAt: dispute.closedAt?.toISOString() ?? null,
    livemode: dispute.livemode,
    createdAt: dispute.createdAt.toISOString(),
    updatedAt: dispute.updatedAt.toISOString(),
  } satisfies z.input<typeof DisputeObject>;
}
