// Settlement (tick): a captured PaymentIntent whose SETTLEMENT_DELAY_SECONDS have passed becomes settled;
// what it still holds (captured minus refunded) moves from merchant_pending to merchant_payable, and
// payment_intent.settled is emitted. One transaction per PaymentIntent under its row lock; the status
// guard makes a race between two ticks settle it once.
import type { Db } from "../db";
import { logUnlessDatabaseDown } from "../db-availability";
import { env } from "../env";
import { emitPaymentIntentEvent } from "./emit-payment-intent-event";
import { inTransaction } from "../in-transaction";
import { postSettlement } from "../ledger/post";
import { transitionPaymentIntent } from "./transitions";

const LIVE_DEFAULT_DELAY_SECONDS = 2 * 24 * 3600;

export function settlementDelaySeconds(livemode: boolean): number {
  return env.SETTLEMENT_DELAY_SECONDS ?? (livemode ? LIVE_DEFAULT_DELAY_SECONDS : 0);
}

export interface SettlementSweep {
  paymentIntentIds?: string[];
  now?: Date;
  limit?: number;
}

export async function settleDuePaymentIntents(db: Db, sweep: SettlementSweep = {}): Promise<number> {
  const now = sweep.now ?? new Date();
  const testDelay = settlementDelaySeconds(false);
  const liveDelay = settlementDelaySeconds(true);
  const candidates = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM payment_intents
     WHERE status = 'captured'
       AND captured_at + make_interval(secs => CASE WHEN livemode THEN ${liveDelay}::int ELSE ${testDelay}::int END) <= ${now}
       AND (${sweep.paymentIntentIds ?? null}::text[] IS NULL OR id = ANY(${sweep.paymentIntentIds ?? null}::text[]))
     ORDER BY captured_at LIMIT ${sweep.limit ?? 500}`;
  let settled = 0;
  for (const { id } of candidates) {
    // One PaymentIntent that cannot settle must not hold back the others (it is retried next tick).
    const done = await inTransaction(db, async (tx) => {
      const locked = await tx.$queryRaw<
        { id: string }[]
      >`SELECT id FROM payment_intents WHERE id = ${id} AND status = 'captured' FOR UPDATE SKIP LOCKED`;
      if (!locked[0]) return false;
      const pi = await transitionPaymentIntent(tx, id, "settled", { settledAt: now });
      await postSettlement(tx, pi, pi.id, pi.currency, pi.amountCaptured - pi.amountRefunded);
      await emitPaymentIntentEvent(tx, "payment_intent.settled", pi);
      return true;
    }).catch((err) => {
      logUnlessDatabaseDown(`settlement of ${id} failed:`, err);
      return false;
    });
    if (done) settled += 1;
  }
  return settled;
}
