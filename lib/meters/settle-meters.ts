// Tick, step 1: bill what flagged meters have accrued. A meter is flagged (`settle_due_at`) by the accrual
// that made its whole minor units reach the threshold, or by close; only flagged meters are read (index
// on settle_due_at), never every open meter. Under the meter's row lock, ONE transaction opens exactly one
// aggregate PaymentIntent for the whole minor units accrued, takes them out of the accrual (the fraction
// carries over) and clears the flag. Its key `<meterId>:<n>` is unique, so no settlement is billed twice.
// The rail is charged in step 2 (charge-meter-payments.ts), outside the meter's lock, so usage never
// waits on a rail call.
import type { Db } from "../db";
import { logUnlessDatabaseDown } from "../db-availability";
import { inTransaction } from "../in-transaction";
import { openPaymentIntent } from "../payments/open-payment-intent";
import { returnUnusedFunds } from "./return-unused-funds";

interface LockedMeter {
  id: string;
  merchant_id: string;
  livemode: boolean;
  customer_id: string;
  status: string;
  prepaid: boolean;
  currency: string;
  payment_method: string;
  threshold_minor: number;
  base_units_per_minor: bigint;
  accrued_base: bigint;
  settlement_count: number;
  used_base: bigint;
  funded_minor: bigint;
  refunded_minor: bigint;
}

/** After a settlement throws, the meter waits this long before the next attempt. */
export const SETTLEMENT_RETRY_SECONDS = 300;

export async function settleDueMeters(db: Db, batch = 200, maxPerTick = 2000): Promise<number> {
  // Batches until nothing due is left (or maxPerTick were tried). A meter whose settlement throws is
  // backed off (settle_due_at moves into the future) and one skipped under another tick's lock is not
  // read again this tick, so no meter, however broken, holds up the others.
  const tried: string[] = [];
  let opened = 0;
  while (tried.length < maxPerTick) {
    const due = await db.$queryRaw<{ id: string }[]>`
      SELECT id FROM meters WHERE settle_due_at <= now() AND id <> ALL(${tried}::text[]) ORDER BY settle_due_at LIMIT ${batch}`;
    if (due.length === 0) break;
    for (const { id } of due) {
      tried.push(id);
      const done = await inTransaction(db, (tx) => settleMeter(tx, id)).catch(async (err) => {
        logUnlessDatabaseDown(`meter settlement of ${id} failed (retried in ${SETTLEMENT_RETRY_SECONDS} s):`, err);
        await db.$executeRaw`
          UPDATE meters SET settle_due_at = now() + make_interval(secs => ${SETTLEMENT_RETRY_SECONDS}::int) WHERE id = ${id} AND settle_due_at IS NOT NULL`;
        return false;
      });
      if (done) opened += 1;
    }
  }
  return opened;
}

/** What a settlement bills, in minor units, and the base units it takes out of the accrual. */
export function settlementOf(meter: Pick<LockedMeter, "status" | "threshold_minor" | "base_units_per_minor" | "accrued_base">) {
  const perMinor = meter.base_units_per_minor;
  if (meter.status === "closed") {
    // Closing bills the rest: the last fraction rounds half up, and nothing carries over.
    const minor = (meter.accrued_base + perMinor / 2n) / perMinor;
    return { minor, takenBase: minor > 0n ? meter.accrued_base : 0n };
  }
  const minor = meter.accrued_base / perMinor;
  if (minor < BigInt(meter.threshold_minor)) return { minor: 0n, takenBase: 0n };
  return { minor, takenBase: minor * perMinor };
}

async function settleMeter(tx: Db, id: string): Promise<boolean> {
  const [meter] = await tx.$queryRaw<LockedMeter[]>`
    SELECT id, merchant_id, livemode, customer_id, status, prepaid, currency, payment_method, threshold_minor,
           base_units_per_minor, accrued_base, settlement_count, used_base, funded_minor, refunded_minor
      FROM meters WHERE id = ${id} AND settle_due_at IS NOT NULL FOR UPDATE SKIP LOCKED`;
  if (!meter) return false; // another tick has it, or already settled it
  // Usage was paid up front: nothing to charge. (A prepaid meter with an accrual is one from before funding
  // existed, when committed usage accrued: that is billed as post-paid usage is, below.)
  if (meter.prepaid && meter.accrued_base === 0n) return returnUnusedFunds(tx, meter);
  const { minor, takenBase } = settlementOf(meter);
  const n = meter.settlement_count + 1;
  if (minor > 0n) {
    await openPaymentIntent(tx, {
      merchantId: meter.merchant_id,
      livemode: meter.livemode,
      amount: Number(minor),
      currency: meter.currency,
      customerId: meter.customer_id,
      paymentMethod: meter.payment_method,
      meterId: meter.id,
      meterChargeKey: `${meter.id}:${n}`,
      source: "meter",
    });
  }
  await tx.$executeRaw`
    UPDATE meters SET accrued_base = accrued_base - ${takenBase}::bigint, billed_minor = billed_minor + ${minor}::bigint,
           settlement_count = settlement_count + ${minor > 0n ? 1 : 0}::int, settle_due_at = NULL, updated_at = now()
     WHERE id = ${id}`;
  return minor > 0n;
}
