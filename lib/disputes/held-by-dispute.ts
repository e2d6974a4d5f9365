// What a dispute holds of a payment: its amount while it is open or once lost (not when won, nor an inquiry's).
// Read by a refund under the PaymentIntent's row lock, which opening a dispute takes too, so the two are decided
// one at a time: a refund takes only the undisputed remainder, and a dispute only what refunds left.
import type { Db } from "../db";
import { HOLDING_STATUSES } from "./transitions";

export async function heldByDispute(tx: Db, paymentIntentId: string): Promise<{ disputeId: string; amount: number } | null> {
  const rows = await tx.$queryRaw<{ id: string; amount: number }[]>`
    SELECT id, amount FROM disputes WHERE payment_intent_id = ${paymentIntentId} AND status = ANY(${HOLDING_STATUSES as string[]})`;
  return rows[0] ? { disputeId: rows[0].id, amount: rows[0].amount } : null;
}
