// Prepaid: hold quantity x unitPriceMinor base units of the budget before the call. One statement inserts
// the reservation and raises the meter's reservedBase only if budget - used - reserved still covers it;
// the UPDATE's guard is evaluated on the newest row version (READ COMMITTED re-checks a row that changed
// under it), so concurrent reservations can never together exceed the budget, and the table's CHECK backs
// it up. A refusal rolls the inserted reservation back. With an idempotencyKey, a retry gets the same
// reservation back instead of a second hold.
import type { Db } from "../db";
import { env } from "../env";
import { InvariantViolation, ValidationError } from "../errors";
import { createId } from "../ids";
import type { Scope } from "../scope";
import { InsufficientBudgetError, MeterPastDueError, meterClosed, readMeter, wrongTrustModel } from "./meter-errors";
import type { ReserveInput } from "./schemas";
import { serializeReservation, type ReservationRow } from "./serialize";

type Row = ReservationRow & { base_units_per_minor: bigint | null };

export async function reserve(tx: Db, scope: Scope, meterId: string, input: ReserveInput) {
  const amount = BigInt(input.quantity) * BigInt(input.unitPriceMinor);
  const rows = await tx.$queryRaw<Row[]>`
    WITH res AS (
      INSERT INTO meter_reservations (id, meter_id, idempotency_key, status, quantity, unit_price_base, amount_base, expires_at)
      SELECT ${createId("meterReservation")}, id, ${input.idempotencyKey ?? null}, 'held', ${input.quantity}::int, ${input.unitPriceMinor}::bigint,
             ${amount}::bigint, now() + make_interval(secs => ${env.METER_RESERVATION_TTL_SECONDS}::int)
        FROM meters WHERE id = ${meterId} AND merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}
      ON CONFLICT (meter_id, idempotency_key) DO NOTHING
      RETURNING *
    ), upd AS (
      UPDATE meters m SET reserved_base = m.reserved_base + res.amount_base, updated_at = now()
        FROM res WHERE m.id = res.meter_id AND m.status = 'open' AND m.prepaid
         AND m.budget_base - m.used_base - m.reserved_base >= res.amount_base
      RETURNING m.base_units_per_minor
    )
    SELECT res.*, (SELECT base_units_per_minor FROM upd) AS base_units_per_minor FROM res`;

  const created = rows[0];
  if (created?.base_units_per_minor) return { created: true, reservation: serializeReservation(created, created.base_units_per_minor, scope.livemode) };

  const meter = await readMeter(tx, scope, meterId); // 404 when it is not this merchant's
  if (created) {
    if (!meter.prepaid) throw wrongTrustModel(meter, "a reservation");
    if (meter.status === "closed") throw meterClosed(meter);
    if (meter.status === "past_due") throw new MeterPastDueError(meter.id);
    // The budget was short when the UPDATE ran; a release or top-up may have landed since. Try once more
    // rather than refuse on a read that is already stale.
    if (meter.budgetBase - meter.usedBase - meter.reservedBase >= amount) {
      const [again] = await tx.$queryRaw<{ base_units_per_minor: bigint }[]>`
        UPDATE meters m SET reserved_base = m.reserved_base + ${amount}::bigint, updated_at = now()
         WHERE id = ${meterId} AND m.status = 'open' AND m.prepaid AND m.budget_base - m.used_base - m.reserved_base >= ${amount}::bigint
        RETURNING m.base_units_per_minor`;
      if (again) return { created: true, reservation: serializeReservation(created, again.base_units_per_minor, scope.livemode) };
    }
    throw new InsufficientBudgetError(meter, amount); // rolls the inserted reservation back
  }
  const [existing] = await tx.$queryRaw<ReservationRow[]>`
    SELECT * FROM meter_reservations WHERE meter_id = ${meterId} AND idempotency_key = ${input.idempotencyKey ?? null}`;
  if (!existing) throw new InvariantViolation(`No reservation for key ${input.idempotencyKey} after a conflict on it.`);
  if (existing.quantity !== input.quantity || existing.unit_price_base !== BigInt(input.unitPriceMinor)) {
    throw new ValidationError(`The idempotencyKey '${input.idempotencyKey}' was already used on this meter for a different reservation.`, [
      { path: "idempotencyKey", message: "already used with a different quantity or unitPriceMinor" },
    ]);
  }
  return { created: false, reservation: serializeReservation(existing, meter.baseUnitsPerMinor, scope.livemode) };
}
