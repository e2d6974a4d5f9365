// Prepaid, after the call: commit (the call succeeded: the held amount is drawn from the funded budget,
// never charged again) or release (the call failed: the hold goes back to the budget, nothing is drawn). ONE statement, committing
// on its own, moves the reservation out of `held` and adjusts the meter: its status guard makes the first
// finisher win, and repeating the same finish answers with the reservation as it is (idempotent). The
// reservation row is locked before the meter row (as close and expiry do; reserve locks only the meter
// row, then inserts a new reservation). A reservation past its expiry, or on a closed meter, can no
// longer be committed: nothing is billed after a meter's final settlement; the caller releases it, or
// the tick does at expiry (expire-reservations.ts). A reserve that raced close can leave one held there.
import { statement, type Sql } from "../db";
import { ConflictError, NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { isOutOfRange, readMeterSql } from "./meter-row";
import { serializeReservation, type ReservationRow } from "./serialize";
import { outOfRangeError } from "./unbilled-limit";
import { hourOf, rollupInsert } from "./usage-rollup-sql";

// $1 reservation, $2 meter, $3 merchant, $4 livemode
// A commit also adds the call to its hour of the usage rollup (usage-rollup-sql.ts), after the meter's row.
const finish = (name: string, status: string, guard: string, reason: string, meterSet: string, rollup = false) =>
  statement(
    name,
    `WITH r AS (
       UPDATE meter_reservations r SET status = '${status}', release_reason = ${reason}, updated_at = now()
         FROM meters s
        WHERE r.id = $1 AND r.meter_id = $2 AND r.status = 'held' ${guard}
          AND s.id = r.meter_id AND s.merchant_id = $3 AND s.livemode = $4
       RETURNING r.*
     ), upd AS (
       UPDATE meters m SET ${meterSet} FROM r WHERE m.id = r.meter_id
       RETURNING m.id, m.base_units_per_minor
     )${
       rollup
         ? `, roll AS (
       ${rollupInsert(`SELECT upd.id, ${hourOf("r.updated_at")}, r.quantity, r.amount_base, 1 FROM r, upd`)}
     )`
         : ""
     }
     SELECT r.*, upd.base_units_per_minor FROM r, upd`,
  );

const FINISH = {
  commit: {
    status: "committed",
    statement: finish(
      "meter_commit_reservation",
      "committed",
      "AND r.expires_at > now() AND s.status <> 'closed'",
      "NULL",
      "reserved_base = m.reserved_base - r.amount_base, used_base = m.used_base + r.amount_base, updated_at = now()",
      true,
    ),
  },
  release: {
    status: "released",
    statement: finish(
      "meter_release_reservation",
      "released",
      "",
      "'failed'",
      "reserved_base = m.reserved_base - r.amount_base, updated_at = now()",
    ),
  },
} as const;

const FIND = statement("meter_find_reservation", "SELECT * FROM meter_reservations WHERE id = $1 AND meter_id = $2");

type Row = ReservationRow & { base_units_per_minor: string };

export async function finishReservation(db: Sql, scope: Scope, meterId: string, reservationId: string, action: keyof typeof FINISH) {
  const step = FINISH[action];
  const [row] = await db.rows<Row>(step.statement, [reservationId, meterId, scope.merchantId, scope.livemode]).catch((err) => {
    throw isOutOfRange(err) ? outOfRangeError(meterId) : err;
  });
  if (row) return serializeReservation(row, BigInt(row.base_units_per_minor), scope.livemode);

  const meter = await readMeterSql(db, scope, meterId); // 404 for another merchant's meter
  const [current] = await db.rows<ReservationRow>(FIND, [reservationId, meterId]);
  if (!current) throw new NotFoundError("meter_reservation", reservationId);
  if (current.status === step.status && (action === "commit" || current.release_reason === "failed")) {
    return serializeReservation(current, meter.baseUnitsPerMinor, scope.livemode); // the same finish again
  }
  if (current.status === "held" && meter.status === "closed") {
    throw new ConflictError(`The reservation ${reservationId} cannot be committed: meter ${meterId} is closed; release it.`, {
      reservationId,
      status: current.status,
      releaseReason: null,
      meterStatus: meter.status,
    });
  }
  const why =
    current.status === "held" ? "expired" : current.status === "released" ? `released (${current.release_reason})` : current.status;
  throw new ConflictError(`The reservation ${reservationId} cannot be ${step.status}: it is ${why}.`, {
    reservationId,
    status: current.status,
    releaseReason: current.release_reason,
  });
}
