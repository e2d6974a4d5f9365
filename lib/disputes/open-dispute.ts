// A dispute opened against a payment (docs/disputes.md): ONE transaction with its ledger posting (the disputed amount
// and the fee leave the merchant's payable funds; an inquiry moves nothing) and its dispute.created event. The
// PaymentIntent's row is locked first, as a refund locks it, so the amount disputed is what refunds left at that
// moment; the unique index on disputes.payment_intent_id makes a second dispute of the payment impossible, whoever
// races (the insert does nothing and nothing else is written).
import type { Db } from "../db";
import { emitEvent } from "../events/emit-event";
import type { Dispute } from "../generated/prisma/client";
import { createId } from "../ids";
import { postDisputeOpened } from "../ledger/post";
import { serializeDispute } from "./serialize";
import { DISPUTE_FEE, EVIDENCE_DAYS, type TestDispute } from "./test-disputes";

interface LockedPayment {
  id: string;
  merchant_id: string;
  livemode: boolean;
  currency: string;
  status: string;
  amount_captured: number;
  amount_refunded: number;
}

/** Opens the dispute of a settled payment; null when there is nothing to dispute (fully refunded, not settled, already disputed). */
export async function openDispute(tx: Db, paymentIntentId: string, opening: TestDispute, now = new Date()): Promise<Dispute | null> {
  const [pi] = await tx.$queryRaw<LockedPayment[]>`
    SELECT id, merchant_id, livemode, currency, status, amount_captured, amount_refunded
      FROM payment_intents WHERE id = ${paymentIntentId} FOR UPDATE`;
  // Settled funds only: they are payable, so the dispute's money leaves and comes back through merchant_payable.
  if (!pi || pi.status !== "settled") return null;
  const amount = pi.amount_captured - pi.amount_refunded;
  if (amount <= 0) return null;
  const fee = opening.inquiry ? 0 : DISPUTE_FEE;
  const dueBy = new Date(now.getTime() + EVIDENCE_DAYS * 86_400_000);
  const id = createId("dispute");
  const made = await tx.dispute.createMany({
    data: [
      {
        id,
        merchantId: pi.merchant_id,
        livemode: pi.livemode,
        paymentIntentId: pi.id,
        status: opening.inquiry ? "warning_needs_response" : "needs_response",
        reason: opening.reason,
        amount,
        currency: pi.currency,
        fee,
        evidence: {},
        evidenceDueBy: dueBy,
        decideAt: dueBy,
        createdAt: now,
        updatedAt: now,
      },
    ],
    skipDuplicates: true, // ON CONFLICT DO NOTHING: the payment's one dispute exists already
  });
  if (made.count === 0) return null;
  const dispute = await tx.dispute.findUniqueOrThrow({ where: { id } });
  const scope = { merchantId: pi.merchant_id, livemode: pi.livemode };
  if (!opening.inquiry) await postDisputeOpened(tx, scope, pi.id, pi.currency, amount, fee);
  await emitEvent(tx, scope, "dispute.created", serializeDispute(dispute));
  return dispute;
}
