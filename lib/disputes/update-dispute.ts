// POST /v1/disputes/:id: the merchant's evidence (given fields replace the stored ones; `includeEvidencePack` attaches
// the service's signed agent evidence pack as `evidencePack`), and `submit: true` sends it:
// the dispute goes under review (an inquiry: warning_under_review) and, in test mode, the tick decides it
// DISPUTE_TEST_DELAY_SECONDS later. One transaction with its dispute.updated event, under the dispute's row lock.
import type { Db } from "../db";
import { env } from "../env";
import { emitEvent } from "../events/emit-event";
import type { Scope } from "../scope";
import { lockDispute, requireAwaitingResponse } from "./close-dispute";
import { buildEvidencePack } from "./evidence-pack";
import type { UpdateDisputeInput } from "./schemas";
import { serializeDispute } from "./serialize";
import { transitionDispute } from "./transitions";

export async function updateDispute(tx: Db, scope: Scope, id: string, input: UpdateDisputeInput) {
  const dispute = await lockDispute(tx, scope, id);
  requireAwaitingResponse(dispute, input.submit ? "take evidence" : "change its evidence");
  const { includeEvidencePack, ...given } = input.evidence ?? {};
  const evidence: Record<string, string> = { ...(dispute.evidence as Record<string, string>), ...given };
  // The pack is assembled now, in this transaction, and stored as its JWS: what the merchant submits is what it saw.
  if (includeEvidencePack) evidence.evidencePack = (await buildEvidencePack(tx, scope, dispute.id)).jws;
  if (includeEvidencePack === false) delete evidence.evidencePack;
  const now = new Date();
  // A live dispute is decided by the card network (docs/disputes.md); the test rail decides a few seconds later.
  const decideAt = scope.livemode ? null : new Date(now.getTime() + env.DISPUTE_TEST_DELAY_SECONDS * 1000);
  const updated = input.submit
    ? await transitionDispute(tx, dispute.id, dispute.status === "needs_response" ? "under_review" : "warning_under_review", {
        evidence,
        evidenceSubmittedAt: now,
        decideAt,
      })
    : await tx.dispute.update({ where: { id: dispute.id }, data: { evidence, updatedAt: now } });
  await emitEvent(tx, scope, "dispute.updated", serializeDispute(updated));
  return serializeDispute(updated);
}
