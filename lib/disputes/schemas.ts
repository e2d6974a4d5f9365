import { z } from "zod";
import { ListQuery } from "../validation/common";
import { listOf, Timestamp } from "../validation/objects";
import { DISPUTE_STATUSES } from "./transitions";

const Text = z.string().max(20_000);
const Short = z.string().max(500);

/** The evidence a merchant gives (Stripe's text fields, camelCase). Given fields replace the stored ones; the rest stay. */
export const DisputeEvidence = z
  .object({
    /** Free text; in test mode `winning_evidence` wins the dispute and anything else (`losing_evidence`) loses it. */
    uncategorizedText: Text.optional(),
    productDescription: Text.optional(),
    customerName: Short.optional(),
    customerEmailAddress: Short.optional(),
    customerPurchaseIp: Short.optional(),
    billingAddress: Short.optional(),
    accessActivityLog: Text.optional(),
    serviceDate: Short.optional(),
    shippingCarrier: Short.optional(),
    shippingDate: Short.optional(),
    shippingTrackingNumber: Short.optional(),
    cancellationRebuttal: Text.optional(),
    duplicateChargeExplanation: Text.optional(),
    refundRefusalExplanation: Text.optional(),
    /**
     * Attach the service's signed agent evidence pack (GET /v1/disputes/:id/evidence_pack), assembled at this moment:
     * the stored evidence gains `evidencePack` (its compact JWS). `false` removes an attached one. Not itself stored.
     */
    includeEvidencePack: z.boolean().optional(),
  })
  .strict();
export type DisputeEvidenceInput = z.output<typeof DisputeEvidence>;

export const UpdateDisputeBody = z
  .object({
    evidence: DisputeEvidence.optional(),
    /** Submit the evidence now (the dispute goes under review); without it the evidence is only saved. */
    submit: z.boolean().optional(),
  })
  .strict()
  .refine((body) => body.evidence !== undefined || body.submit !== undefined, {
    path: ["evidence"],
    message: "give evidence, submit, or both",
  });
export type UpdateDisputeInput = z.output<typeof UpdateDisputeBody>;

export const ListDisputesQuery = ListQuery.extend({
  paymentIntentId: z.string().min(1).max(64).optional(),
  status: z.enum(DISPUTE_STATUSES).optional(),
}).strict();
export type ListDisputesInput = z.output<typeof ListDisputesQuery>;

// Responses.

export const DisputeObject = z
  .object({
    id: z.string(),
    object: z.literal("dispute"),
    status: z.enum(DISPUTE_STATUSES),
    reason: z.string(),
    /** The disputed amount (what was left of the payment after refunds), in minor units. */
    amount: z.number().int(),
    currency: z.string(),
    /** The dispute fee (0 for an inquiry), taken when opened and returned when won. */
    fee: z.number().int(),
    paymentIntentId: z.string(),
    /** An inquiry (warning_* statuses): no money held, no fee. */
    isInquiry: z.boolean(),
    evidence: z.record(z.string(), z.string()),
    evidenceDueBy: Timestamp,
    evidenceSubmittedAt: Timestamp.nullable(),
    closedAt: Timestamp.nullable(),
    livemode: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Dispute" });

export const DisputeList = listOf(DisputeObject, "DisputeList");

/** GET /v1/disputes/:id/evidence_pack (docs/disputes.md, "The evidence pack"). */
export const EvidencePackObject = z
  .object({
    object: z.literal("evidence_pack"),
    /** The dispute's id. */
    dispute: z.string(),
    /** The document signed by the service (ES256, `kid` in /.well-known/jwks.json; header typ `evidence-pack+jwt`). */
    jws: z.string(),
    /** The same pack printed: GET it with the same key. */
    pdfUrl: z.string(),
    /** The JWS's claims: the dispute, the payment, the signed receipt, the verified agent, AP2, x402, ACP, delivery, events. */
    document: z.record(z.string(), z.unknown()),
  })
  .meta({ id: "EvidencePack" });
