// Expiry: an open checkout past expiresAt becomes expired (PaymentIntent expired, order canceled, events
// payment_intent.expired + order.canceled). The tick's sweep is the one writer of that transition: reads
// never write, they show an overdue checkout as expired already (seen-now.ts), and captures refuse one
// (closed-checkout-error.ts). Each checkout expires in its own transaction under its row lock (SKIP LOCKED:
// a checkout being captured is left to its capture), and the status guard of the transition makes the
// events fire once however many ticks race.
import { Prisma } from "../generated/prisma/client";
import type { Db } from "../db";
import { readPaymentIntent } from "../payments/find-payment-intent";
import { logUnlessDatabaseDown } from "../db-availability";
import { inTransaction } from "../in-transaction";
import { applyExpiry, recoverCrashedCharge } from "./apply-outcomes";

export interface ExpirySweep {
  checkoutIds?: string[];
  /** The clock to compare deadlines with (tests move it forward); default: now. */
  now?: Date;
  limit?: number;
}

export async function expireOverdueCheckouts(db: Db, sweep: ExpirySweep = {}): Promise<number> {
  const now = sweep.now ?? new Date();
  const idFilter = sweep.checkoutIds ? Prisma.sql`AND id = ANY(${sweep.checkoutIds})` : Prisma.empty;
  const candidates = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM checkouts WHERE status = 'open' AND expires_at <= ${now} ${idFilter}
     ORDER BY expires_at LIMIT ${sweep.limit ?? 500}`;
  let expired = 0;
  for (const { id } of candidates) {
    const done = await inTransaction(db, async (tx) => {
      const locked = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM checkouts WHERE id = ${id} AND status = 'open' AND expires_at <= ${now} FOR UPDATE SKIP LOCKED`;
      if (!locked[0]) return false;
      const checkout = await tx.checkout.findUniqueOrThrow({ where: { id } });
      const pi = await readPaymentIntent(tx, checkout.paymentIntentId);
      const recovered = await recoverCrashedCharge(tx, checkout, pi);
      if (recovered.recovered) return false; // it had been charged (or declined) before its deadline, or is processing
      await applyExpiry(tx, checkout);
      return true;
    }).catch((err) => {
      logUnlessDatabaseDown(`could not expire checkout ${id}:`, err);
      return false;
    });
    if (done) expired += 1;
  }
  return expired;
}
