// Post-paid usage: ONE statement, committing on its own, adds the amount to the meter's accrual and inserts
// the record (only if the meter took it). The meter's row lock is held for that statement alone, so calls
// on one meter queue for microseconds, not for a round trip. The record is unique per (meter,
// idempotencyKey): a retried call's statement fails on the unique index as a whole (its accrual undone
// with it), and the retry is answered with the first record, so it counts once. Crossing the threshold
// only flags the meter; the tick bills it (settle-meters.ts). The same statement adds the record to its
// hour in the usage rollup (usage-rollup-sql.ts). `created` is false for a replay.
import { statement, type Sql } from "../db";
import { InvariantViolation, ValidationError } from "../errors";
import { createId } from "../ids";
import type { Scope } from "../scope";
import { accrueSet } from "./accrual-sql";
import { MeterPastDueError, meterClosed } from "./meter-errors";
import { isOutOfRange, isUniqueViolation, readMeterSql } from "./meter-row";
import type { RecordUsageInput } from "./schemas";
import { serializeUsageRecord, type UsageRecordRow } from "./serialize";
import { throwWhyRefused } from "./refused-usage";
import { outOfRangeError, UNBILLED_LIMIT_SQL, unbilledLimitError } from "./unbilled-limit";
import { hourOf, rollupInsert } from "./usage-rollup-sql";

// $1 meter, $2 merchant, $3 livemode, $4 record id, $5 idempotency key, $6 quantity, $7 unit price, $8 amount (base units)
const RECORD_USAGE = statement(
  "meter_record_usage",
  `WITH upd AS (
     UPDATE meters m SET ${accrueSet("$8::bigint")}
      WHERE m.id = $1 AND m.merchant_id = $2 AND m.livemode = $3 AND m.status = 'open' AND NOT m.prepaid
        AND m.accrued_base + $8::bigint <= ${UNBILLED_LIMIT_SQL}
     RETURNING m.id, m.base_units_per_minor
   ), ins AS (
     INSERT INTO meter_usage_records (id, meter_id, idempotency_key, quantity, unit_price_base, amount_base)
     SELECT $4, upd.id, $5, $6, $7, $8 FROM upd
     RETURNING *
   ), roll AS (
     ${rollupInsert(`SELECT meter_id, ${hourOf("created_at")}, quantity, amount_base, 1 FROM ins`)}
   )
   SELECT ins.*, upd.base_units_per_minor FROM ins, upd`,
);

const FIND_RECORD = statement("meter_find_usage_record", "SELECT * FROM meter_usage_records WHERE meter_id = $1 AND idempotency_key = $2");

type Row = UsageRecordRow & { base_units_per_minor: string };

export async function recordUsage(db: Sql, scope: Scope, meterId: string, input: RecordUsageInput) {
  const amount = BigInt(input.quantity) * BigInt(input.unitPriceMinor);
  const attempt = async () => {
    try {
      const [row] = await db.rows<Row>(RECORD_USAGE, [
        meterId,
        scope.merchantId,
        scope.livemode,
        createId("usageRecord"),
        input.idempotencyKey,
        input.quantity,
        input.unitPriceMinor,
        amount.toString(),
      ]);
      return row ? { created: true, record: serializeUsageRecord(row, BigInt(row.base_units_per_minor), scope.livemode) } : null;
    } catch (err) {
      if (isUniqueViolation(err, "meter_usage_records_meter_id_idempotency_key_key")) return replay(db, scope, meterId, input);
      if (isOutOfRange(err)) throw outOfRangeError(meterId);
      throw err;
    }
  };

  const recorded = await attempt();
  if (recorded) return recorded;
  // The guard refused. A retry of a record that already landed (the meter closed since, or its accrual is
  // now at the limit) is still a replay: answer it before explaining any refusal.
  const replayed = await replayIfRecorded(db, scope, meterId, input);
  if (replayed) return replayed;
  await throwWhyRefused(db, scope, meterId, amount, { prepaid: false, operation: "a usage record" });
  // A settlement took accrual out in between: the record fits now, so try once more.
  const again = await attempt();
  if (again) return again;
  const latest = await readMeterSql(db, scope, meterId);
  if (latest.status === "past_due") throw new MeterPastDueError(latest.id);
  throw latest.status === "closed" ? meterClosed(latest) : (unbilledLimitError(latest, amount, "quantity") ?? meterClosed(latest));
}

async function replayIfRecorded(db: Sql, scope: Scope, meterId: string, input: RecordUsageInput) {
  const [existing] = await db.rows<UsageRecordRow>(FIND_RECORD, [meterId, input.idempotencyKey]);
  return existing ? replay(db, scope, meterId, input) : null;
}

/** The key was used before on this meter: the same usage again is a replay, other usage is a mistake. */
async function replay(db: Sql, scope: Scope, meterId: string, input: RecordUsageInput) {
  const meter = await readMeterSql(db, scope, meterId);
  const [existing] = await db.rows<UsageRecordRow>(FIND_RECORD, [meterId, input.idempotencyKey]);
  if (!existing) throw new InvariantViolation(`No usage record for key ${input.idempotencyKey} after a conflict on it.`);
  if (existing.quantity !== input.quantity || BigInt(existing.unit_price_base) !== BigInt(input.unitPriceMinor)) {
    throw new ValidationError(`The idempotencyKey '${input.idempotencyKey}' was already used on this meter with different usage.`, [
      { path: "idempotencyKey", message: "already used with a different quantity or unitPriceMinor" },
    ]);
  }
  return { created: false, record: serializeUsageRecord(existing, meter.baseUnitsPerMinor, scope.livemode) };
}
