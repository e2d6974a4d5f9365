// Expiry: an open checkout past expiresAt becomes expired (PaymentIntent expired, order canceled, events
// payment_intent.expired + order.canceled). The tick sweeps every overdue checkout; reads sweep the ones
// they are about to show, so a read never shows an overdue checkout as open. Each checkout expires in its
// own transaction under its row lock (SKIP LOCKED: a checkout being captured is left to its capture), and
// the status guard of the transition makes the events fire once however many sweepers race.
import { Prisma } from "../generated/prisma/client";
import type { Db } from "../db";
import { inTransaction } from "../in-transaction";
import type { Scope } from "../scope";
import { applyExpiry, recoverCrashedCharge } from "./apply-outcomes";

export interface ExpirySweep {
  scope?: Scope;
  checkoutIds?: string[];
  /** The clock to compare deadlines with (tests move it forward); default: now. */
  now?: Date;
  limit?: number;
}

export async function expireOverdueCheckouts(db: Db, sweep: ExpirySweep = {}): Promise<number> {
  const now = sweep.now ?? new Date();
  const scopeFilter = sweep.scope
    ? Prisma.sql`AND merchant_id = ${sweep.scope.merchantId} AND livemode = ${sweep.scope.livemode}`
    : Prisma.empty;
  const idFilter = sweep.checkoutIds ? Prisma.sql`AND id = ANY(${sweep.checkoutIds})` : Prisma.empty;
  const candidates = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM checkouts WHERE status = 'open' AND expires_at <= ${now} ${scopeFilter} ${idFilter}
     ORDER BY expires_at LIMIT ${sweep.limit ?? 500}`;
  let expired = 0;
  for (const { id } of candidates) {
    const done = await inTransaction(db, async (tx) => {
      const locked = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM checkouts WHERE id = ${id} AND status = 'open' AND expires_at <= ${now} FOR UPDATE SKIP LOCKED`;
      if (!locked[0]) return false;
      const checkout = await tx.checkout.findUniqueOrThrow({ where: { id } });
      const pi = await tx.paymentIntent.findUniqueOrThrow({ where: { id: checkout.paymentIntentId } });
      const recovered = await recoverCrashedCharge(tx, checkout, pi);
      if (recovered.recovered) return false; // it had been charged (or declined) before its deadline
      await applyExpiry(tx, checkout);
      return true;
    }).catch((err) => {
      console.error(`could not expire checkout ${id}:`, err instanceof Error ? err.message : err);
      return false;
    });
    if (done) expired += 1;
  }
  return expired;
}
