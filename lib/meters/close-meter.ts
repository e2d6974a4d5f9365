// Close: no more usage or reservations; the reservations still held are released (their calls are not
// billed); the meter is flagged for the tick, which bills what a post-paid meter accrued (rounded to the
// minor unit) in one last aggregate PaymentIntent, or refunds what a prepaid meter's usage left of its funds. Locks: the held reservation rows first, then the meter row, the order
// commit, release and expiry use, so close never deadlocks with them. (Reserve locks the meter row first,
// then inserts its reservation: one inserted concurrently with close is not in this statement's snapshot
// and stays held on the closed meter. It can never be committed there (finish-reservation.ts refuses a
// commit on a closed meter), so it is released by its caller or at expiry, and nothing is billed after
// the final settlement.)
import type { Db } from "../db";
import type { Scope } from "../scope";
import { meterClosed, readMeter } from "./meter-errors";
import { serializeMeter } from "./serialize";

export async function closeMeter(tx: Db, scope: Scope, meterId: string) {
  const meter = await readMeter(tx, scope, meterId); // 404 for another merchant's meter
  if (meter.status === "closed") throw meterClosed(meter);
  const [closed] = await tx.$queryRaw<{ id: string }[]>`
    WITH released AS (
      UPDATE meter_reservations SET status = 'released', release_reason = 'closed', updated_at = now()
       WHERE meter_id = ${meterId} AND status = 'held'
      RETURNING amount_base
    )
    UPDATE meters SET status = 'closed', closed_at = now(), updated_at = now(),
           reserved_base = reserved_base - (SELECT coalesce(sum(amount_base), 0)::bigint FROM released),
           settle_due_at = CASE WHEN accrued_base > 0 OR funded_minor > refunded_minor THEN now() ELSE NULL END
     WHERE id = ${meterId} AND status <> 'closed'
    RETURNING id`;
  if (!closed) throw meterClosed(meter); // a concurrent close won
  return serializeMeter(await readMeter(tx, scope, meterId));
}
