// How a dispute ends (docs/disputes.md), in the caller's transaction with its ledger posting and its dispute.closed
// event: won (the amount and the fee come back to the merchant), lost (the held amount goes to the payer; the fee
// stays spent), or an inquiry's warning_closed (no money ever moved). Accepting (POST /v1/disputes/:id/close) is the
// merchant's own "lost".
import type { Db } from "../db";
import { ConflictError, NotFoundError } from "../errors";
import { emitEvent } from "../events/emit-event";
import type { Dispute } from "../generated/prisma/client";
import { postDisputeLost, postDisputeWon } from "../ledger/post";
import type { Scope } from "../scope";
import { serializeDispute } from "./serialize";
import { AWAITING_RESPONSE, transitionDispute, type DisputeStatus } from "./transitions";

export type DisputeOutcome = Extract<DisputeStatus, "won" | "lost" | "warning_closed">;

export async function finishDispute(tx: Db, dispute: Dispute, to: DisputeOutcome, now = new Date()): Promise<Dispute> {
  const closed = await transitionDispute(tx, dispute.id, to, { decideAt: null, closedAt: now });
  const scope = { merchantId: closed.merchantId, livemode: closed.livemode };
  if (to === "won") await postDisputeWon(tx, scope, closed.paymentIntentId, closed.currency, closed.amount, closed.fee);
  if (to === "lost") await postDisputeLost(tx, scope, closed.paymentIntentId, closed.currency, closed.amount);
  await emitEvent(tx, scope, "dispute.closed", serializeDispute(closed));
  return closed;
}

/** The dispute, its row locked (FOR UPDATE) in the caller's transaction: 404 outside the scope. */
export async function lockDispute(tx: Db, scope: Scope, id: string): Promise<Dispute> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM disputes WHERE id = ${id} AND merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} FOR UPDATE`;
  if (!rows[0]) throw new NotFoundError("dispute", id);
  return tx.dispute.findUniqueOrThrow({ where: { id: rows[0].id } });
}

/** 409 unless the dispute still awaits the merchant's response (evidence, submission or acceptance). */
export function requireAwaitingResponse(dispute: Dispute, action: string): void {
  if (!(AWAITING_RESPONSE as readonly string[]).includes(dispute.status))
    throw new ConflictError(`The dispute ${dispute.id} is '${dispute.status}': it can no longer ${action}.`, {
      reason: "dispute_not_awaiting_response",
      status: dispute.status,
    });
}

/** POST /v1/disputes/:id/close: the merchant accepts the dispute (lost), or closes an inquiry (warning_closed). */
export async function closeDispute(tx: Db, scope: Scope, id: string) {
  const dispute = await lockDispute(tx, scope, id);
  requireAwaitingResponse(dispute, "be accepted");
  return serializeDispute(await finishDispute(tx, dispute, dispute.status === "needs_response" ? "lost" : "warning_closed"));
}
