// What a dispute holds of a payment: its amount while it is open or once lost (not when won, nor an inquiry's).
// Read by a refund under the PaymentIntent's row lock, which opening a dispute takes too, so the two are decided
// one at a time: a refund takes only the undisputed remainder, and a dispute only what refunds left.
// Here rather than in lib/disputes: refunds stay below disputes in the import graph (scripts/deps.ts).
import type { Db } from "../db";

/** The dispute statuses (lib/disputes/transitions.ts) whose amount is held from the payment. */
export const HOLDING_STATUSES = ["needs_response", "under_review", "lost"] as const;

export async function heldByDispute(tx: Db, paymentIntentId: string): Promise<{ disputeId: string; amount: number } | null> {
  const rows = await tx.$queryRaw<{ id: string; amount: number }[]>`
    SELECT id, amount FROM disputes WHERE payment_intent_id = ${paymentIntentId} AND status = ANY(${HOLDING_STATUSES as readonly string[] as string[]})`;
  return rows[0] ? { disputeId: rows[0].id, amount: rows[0].amount } : null;
}
