// Tick, step 2: charge the aggregate PaymentIntents that settlements opened (status requires_payment; a
// prepaid meter's fundings are charged by their requests, fund-meter.ts),
// each in one transaction under the PaymentIntent's row lock, through the charge engine
// (lib/payments/charge-payment.ts): the rail charge (idempotent on the PaymentIntent's unique meterChargeKey,
// so a retry after a crash or a time-out never charges twice), then the transition, the ledger posting and
// the payment_intent.* event together, with the meter's part (SETTLEMENT). A rail that answers `pending`
// leaves the PaymentIntent processing, for the tick's resolveProcessingPayments. A declined charge fails the
// PaymentIntent, moves its amount from billed to outstanding and makes the meter past_due (no new usage or
// reservations until POST /v1/meters/:id/retry-payment collects it); a rail failure leaves it for the next tick.
import type { Db } from "../db";
import { logUnlessDatabaseDown } from "../db-availability";
import { inTransaction } from "../in-transaction";
import type { ChargeFollower } from "../payments/apply-charge-outcome";
import { chargePayment } from "../payments/charge-payment";
import { breakerScopeOf, guarded, railFor } from "../rails";

export async function chargeMeterPayments(db: Db, batch = 200, maxPerTick = 2000): Promise<number> {
  // Oldest attempt first (updated_at), in batches until none is left this tick. A PaymentIntent whose
  // charge throws has its updated_at moved to now, so it goes to the back of the queue: a charge that
  // keeps failing never holds up the others, and is retried after them.
  const tried: string[] = [];
  let charged = 0;
  while (tried.length < maxPerTick) {
    const pending = await db.$queryRaw<{ id: string }[]>`
      SELECT id FROM payment_intents WHERE status = 'requires_payment' AND meter_id IS NOT NULL AND NOT meter_funding AND id <> ALL(${tried}::text[])
       ORDER BY updated_at, id LIMIT ${batch}`;
    if (pending.length === 0) break;
    for (const { id } of pending) {
      tried.push(id);
      const done = await inTransaction(db, (tx) => chargeMeterPayment(tx, id)).catch(async (err) => {
        logUnlessDatabaseDown(`meter charge of ${id} failed (retried after the others):`, err);
        await db.$executeRaw`UPDATE payment_intents SET updated_at = now() WHERE id = ${id} AND status = 'requires_payment'`;
        return false;
      });
      if (done) charged += 1;
    }
  }
  return charged;
}

async function chargeMeterPayment(tx: Db, id: string): Promise<boolean> {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM payment_intents WHERE id = ${id} AND status = 'requires_payment' AND NOT meter_funding FOR UPDATE SKIP LOCKED`;
  if (!locked[0]) return false;
  const pi = await tx.paymentIntent.findUniqueOrThrow({ where: { id } });
  const rail = guarded(railFor(pi.livemode), breakerScopeOf(pi));
  await chargePayment(tx, pi, { rail, paymentMethod: pi.paymentMethod!, chargeKey: pi.meterChargeKey!, follower: SETTLEMENT });
  return true;
}

/** The meter's part of a settlement's outcome (the engine writes the PaymentIntent's, the ledger's and the event). */
export const SETTLEMENT: ChargeFollower = {
  async captured(tx, pi) {
    // A past-due meter whose declined amounts are all collected again takes usage again.
    await tx.$executeRaw`UPDATE meters SET status = 'open', updated_at = now() WHERE id = ${pi.meterId} AND status = 'past_due' AND outstanding_minor = 0`;
  },
  async failed(tx, pi) {
    // The declined amount is not billed after all: it is outstanding until retry-payment collects it.
    await tx.$executeRaw`
      UPDATE meters SET status = CASE WHEN status = 'open' THEN 'past_due' ELSE status END,
             billed_minor = billed_minor - ${pi.amount}::bigint, outstanding_minor = outstanding_minor + ${pi.amount}::bigint, updated_at = now()
       WHERE id = ${pi.meterId}`;
  },
};
