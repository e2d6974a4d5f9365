// A live dispute reported by the rail (docs/disputes.md, "Live mode"): the rail's provider webhook, its signature
// checked by the rail (Rail.disputes), is applied here in ONE transaction with the provider's event id claimed
// (inbound_wallet_events, so a redelivery changes nothing): `opened` takes the test rail's own path (openDispute: the
// PaymentIntent's lock, the ledger posting, dispute.created), `closed` the tick's (finishDispute: won or lost with its
// posting and dispute.closed). An on-chain payment (a rail that is not custodial) cannot be disputed: 409.
import { transaction, type Db } from "../db";
import { ConflictError, NotFoundError } from "../errors";
import { isNonCustodialRail } from "../rails";
import type { RailDisputeNotice } from "../rails/rail";
import { finishDispute, type DisputeOutcome } from "./close-dispute";
import { openDispute } from "./open-dispute";
import { serializeDispute } from "./serialize";

export interface RailDisputeResult {
  received: true;
  duplicate?: true;
  dispute?: ReturnType<typeof serializeDispute>;
}

export function applyRailDisputeNotice(notice: RailDisputeNotice): Promise<RailDisputeResult> {
  return transaction(async (tx) => {
    const { count } = await tx.inboundWalletEvent.createMany({
      data: [{ id: notice.id, type: `dispute.${notice.kind}`, paymentIntentId: notice.paymentIntentId }],
      skipDuplicates: true,
    });
    if (count === 0) return { received: true, duplicate: true };
    const pi = await tx.paymentIntent.findUnique({
      where: { id: notice.paymentIntentId },
      select: { id: true, livemode: true, rail: true },
    });
    // Live payments only: a test payment's disputes come from the test instruments (pm_card_createDispute*).
    if (!pi?.livemode) throw new NotFoundError("payment_intent", notice.paymentIntentId);
    if (isNonCustodialRail(pi.rail))
      throw new ConflictError(
        `PaymentIntent ${pi.id} was an on-chain transfer: it is final on the chain and cannot be disputed through a card network.`,
        { reason: "not_disputable", paymentIntentId: pi.id },
      );
    const dispute = notice.kind === "opened" ? await opened(tx, pi.id, notice) : await closed(tx, pi.id, notice);
    return { received: true, dispute: serializeDispute(dispute) };
  });
}

async function opened(tx: Db, paymentIntentId: string, notice: RailDisputeNotice) {
  const dispute = await openDispute(tx, paymentIntentId, { reason: notice.reason ?? "general", inquiry: notice.inquiry ?? false });
  if (dispute) return dispute;
  const existing = await tx.dispute.findUnique({ where: { paymentIntentId } });
  throw new ConflictError(
    existing
      ? `PaymentIntent ${paymentIntentId} is already disputed (${existing.id}).`
      : `PaymentIntent ${paymentIntentId} has nothing to dispute: it is not settled, or fully refunded.`,
    existing ? { reason: "already_disputed", disputeId: existing.id } : { reason: "nothing_to_dispute" },
  );
}

async function closed(tx: Db, paymentIntentId: string, notice: RailDisputeNotice) {
  const [row] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM disputes WHERE payment_intent_id = ${paymentIntentId} FOR UPDATE`;
  if (!row) throw new NotFoundError("dispute", paymentIntentId);
  const dispute = await tx.dispute.findUniqueOrThrow({ where: { id: row.id } });
  const outcome: DisputeOutcome = dispute.status.startsWith("warning_") ? "warning_closed" : (notice.outcome ?? "lost");
  return finishDispute(tx, dispute, outcome);
}
