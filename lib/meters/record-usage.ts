// Post-paid usage: one statement inserts the record and adds it to the meter's accrual. The record is
// unique per (meter, idempotencyKey), so a retried call counts once: concurrent retries wait on the
// unique index and find the first one's record. Crossing the threshold only flags the meter; the tick
// bills it (lib/meters/settle-meters.ts), keeping this hot path to one round trip. `created` is false for a
// replay of an earlier record (the route answers 200 instead of 201).
import type { Db } from "../db";
import { InvariantViolation, ValidationError } from "../errors";
import { createId } from "../ids";
import type { Scope } from "../scope";
import { accrue } from "./accrual-sql";
import { meterClosed, readMeter, wrongTrustModel } from "./meter-errors";
import type { RecordUsageInput } from "./schemas";
import { serializeUsageRecord, type UsageRecordRow } from "./serialize";

type Row = UsageRecordRow & { base_units_per_minor: bigint | null };

export async function recordUsage(tx: Db, scope: Scope, meterId: string, input: RecordUsageInput) {
  const amount = BigInt(input.quantity) * BigInt(input.unitPriceMinor);
  const rows = await tx.$queryRaw<Row[]>`
    WITH rec AS (
      INSERT INTO meter_usage_records (id, meter_id, idempotency_key, quantity, unit_price_base, amount_base)
      SELECT ${createId("usageRecord")}, id, ${input.idempotencyKey}, ${input.quantity}::int, ${input.unitPriceMinor}::bigint, ${amount}::bigint
        FROM meters WHERE id = ${meterId} AND merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}
      ON CONFLICT (meter_id, idempotency_key) DO NOTHING
      RETURNING *
    ), upd AS (
      UPDATE meters m SET ${accrue("rec.amount_base")}
        FROM rec WHERE m.id = rec.meter_id AND m.status IN ('open', 'past_due') AND NOT m.prepaid
      RETURNING m.base_units_per_minor
    )
    SELECT rec.*, (SELECT base_units_per_minor FROM upd) AS base_units_per_minor FROM rec`;

  const created = rows[0];
  if (created?.base_units_per_minor) return { created: true, record: serializeUsageRecord(created, created.base_units_per_minor, scope.livemode) };

  const meter = await readMeter(tx, scope, meterId); // 404 when it is not this merchant's
  if (created) throw meter.prepaid ? wrongTrustModel(meter, "a usage record") : meterClosed(meter); // rolls the insert back
  // The key was used before on this meter: the same usage again is a replay, other usage is a mistake.
  const [existing] = await tx.$queryRaw<UsageRecordRow[]>`
    SELECT * FROM meter_usage_records WHERE meter_id = ${meterId} AND idempotency_key = ${input.idempotencyKey}`;
  if (!existing) throw new InvariantViolation(`No usage record for key ${input.idempotencyKey} after a conflict on it.`);
  if (existing.quantity !== input.quantity || existing.unit_price_base !== BigInt(input.unitPriceMinor)) {
    throw new ValidationError(`The idempotencyKey '${input.idempotencyKey}' was already used on this meter with different usage.`, [
      { path: "idempotencyKey", message: "already used with a different quantity or unitPriceMinor" },
    ]);
  }
  return { created: false, record: serializeUsageRecord(existing, meter.baseUnitsPerMinor, scope.livemode) };
}
