import type { z } from "zod";
import type { Dispute } from "../generated/prisma/client";
import type { SqlTable } from "../pagination";
import type { DisputeObject } from "./schemas";
import type { DisputeStatus } from "./transitions";

/** The columns the API object shows (a raw-SQL read selects just these: DISPUTES). */
export type DisputeFields = Omit<Dispute, "merchantId" | "decideAt">;

/** The disputes table as the API shows it, for the raw-SQL reads of lib/pagination.ts (the list, a dispute by id). */
export const DISPUTES: SqlTable = {
  table: "disputes",
  columns: `id, status, reason, amount, currency, fee, payment_intent_id AS "paymentIntentId", evidence,
    evidence_due_by AS "evidenceDueBy", evidence_submitted_at AS "evidenceSubmittedAt", closed_at AS "closedAt", livemode,
    created_at AS "createdAt", updated_at AS "updatedAt"`,
};

export function serializeDispute(dispute: DisputeFields) {
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
