// Prepaid, after the call: commit (the call succeeded: the held amount is billed, joining the accrual) or
// release (the call failed: the hold goes back to the budget, nothing is billed). One statement moves the
// reservation out of `held` and adjusts the meter; its status guard makes the first finisher win, and
// repeating the same finish answers with the reservation as it is (idempotent). A reservation past its
// expiry can no longer be committed: the tick releases it (expire-reservations.ts).
import type { Db } from "../db";
import { ConflictError, NotFoundError } from "../errors";
import { Prisma } from "../generated/prisma/client";
import type { Scope } from "../scope";
import { accrue } from "./accrual-sql";
import { readMeter } from "./meter-errors";
import { serializeReservation, type ReservationRow } from "./serialize";

type Row = ReservationRow & { base_units_per_minor: bigint | null };

const FINISH = {
  commit: {
    status: "committed",
    guard: Prisma.sql`AND r.expires_at > now()`,
    reason: Prisma.sql`NULL`,
    meterSet: Prisma.sql`reserved_base = m.reserved_base - r.amount_base, ${accrue("r.amount_base")}`,
  },
  release: {
    status: "released",
    guard: Prisma.empty,
    reason: Prisma.sql`'failed'`,
    meterSet: Prisma.sql`reserved_base = m.reserved_base - r.amount_base, updated_at = now()`,
  },
} as const;

export async function finishReservation(tx: Db, scope: Scope, meterId: string, reservationId: string, action: keyof typeof FINISH) {
  const step = FINISH[action];
  const rows = await tx.$queryRaw<Row[]>`
    WITH r AS (
      UPDATE meter_reservations r SET status = ${step.status}, release_reason = ${step.reason}, updated_at = now()
        FROM meters s
       WHERE r.id = ${reservationId} AND r.meter_id = ${meterId} AND r.status = 'held' ${step.guard}
         AND s.id = r.meter_id AND s.merchant_id = ${scope.merchantId} AND s.livemode = ${scope.livemode}
      RETURNING r.*
    ), upd AS (
      UPDATE meters m SET ${step.meterSet} FROM r WHERE m.id = r.meter_id
      RETURNING m.base_units_per_minor
    )
    SELECT r.*, (SELECT base_units_per_minor FROM upd) AS base_units_per_minor FROM r`;
  if (rows[0]?.base_units_per_minor) return serializeReservation(rows[0], rows[0].base_units_per_minor, scope.livemode);

  const meter = await readMeter(tx, scope, meterId);
  const [current] = await tx.$queryRaw<ReservationRow[]>`SELECT * FROM meter_reservations WHERE id = ${reservationId} AND meter_id = ${meterId}`;
  if (!current) throw new NotFoundError("meter_reservation", reservationId);
  if (current.status === step.status && (action === "commit" || current.release_reason === "failed")) {
    return serializeReservation(current, meter.baseUnitsPerMinor, scope.livemode); // the same finish again
  }
  const why = current.status === "held" ? "expired" : current.status === "released" ? `released (${current.release_reason})` : current.status;
  throw new ConflictError(`The reservation ${reservationId} cannot be ${step.status}: it is ${why}.`, {
    reservationId,
    status: current.status,
    releaseReason: current.release_reason,
  });
}
