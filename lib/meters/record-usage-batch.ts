// Post-paid usage in batches (POST /v1/meters/usage_batches): up to 1,000 records across the merchant's
// meters in a few set-based statements of ONE transaction, which also stores the request's idempotent
// response (api() with db: "sql"):
//   1. the batch's meters of this merchant and mode, locked in id order (FOR NO KEY UPDATE, the lock the
//      single-record UPDATE takes), so concurrent batches never deadlock and nothing else records usage on
//      them until this commits;
//   2. the records already counted under the batch's keys (any earlier batch or POST /v1/meters/:id/usage);
//   3. one statement: INSERT ... SELECT FROM unnest(...) of the new records, then ONE UPDATE per meter of
//      the accrual from the inserted rows grouped by meter, with the single-record path's SET fragment
//      (accrual-sql.ts), so the threshold flag for the tick is set exactly as a usage record sets it, and
//      ONE upsert per meter and hour of the usage rollup (usage-rollup-sql.ts).
// Each record is judged in request order exactly as the single-record path judges it (record-usage.ts):
// a key already counted is a duplicate (other usage under it is refused VALIDATION_ERROR), then the meter's
// trust model, status and unbilled limit. Because the meters are locked before step 2, what step 2 sees is
// all that will ever be counted before step 3, so every record counts once however batches race.
import { statement, type Sql } from "../db";
import { DomainError, InvariantViolation, NotFoundError, ValidationError } from "../errors";
import type { Meter } from "../generated/prisma/client";
import { createId } from "../ids";
import type { Scope } from "../scope";
import { accrueSet } from "./accrual-sql";
import { MeterPastDueError, meterClosed, wrongTrustModel } from "./meter-errors";
import { isOutOfRange, meterFromRow, type MeterRow } from "./meter-row";
import type { UsageBatchRecordInput } from "./schemas";
import { outOfRangeError, unbilledLimitError } from "./unbilled-limit";
import { hourOf, rollupInsert } from "./usage-rollup-sql";

// $1 meter ids, $2 merchant, $3 livemode. ORDER BY sits below the row locks: rows are locked in id order.
const LOCK_METERS = statement(
  "meter_batch_lock",
  "SELECT * FROM meters WHERE id = ANY($1::text[]) AND merchant_id = $2 AND livemode = $3 ORDER BY id FOR NO KEY UPDATE",
);

// $1 meter ids, $2 keys (pairs, position by position): the records already counted under them.
const FIND_RECORDS = statement(
  "meter_batch_find_records",
  `SELECT r.id, r.meter_id, r.idempotency_key, r.quantity, r.unit_price_base
     FROM unnest($1::text[], $2::text[]) AS k(meter_id, idempotency_key)
     JOIN meter_usage_records r ON r.meter_id = k.meter_id AND r.idempotency_key = k.idempotency_key`,
);

// $1 ids, $2 meter ids, $3 keys, $4 quantities, $5 unit prices, $6 amounts (base units), $7 timestamps.
const INSERT_AND_ACCRUE = statement(
  "meter_batch_insert_accrue",
  `WITH ins AS (
     INSERT INTO meter_usage_records (id, meter_id, idempotency_key, quantity, unit_price_base, amount_base, occurred_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::bigint[], $6::bigint[], $7::timestamptz[])
     ON CONFLICT (meter_id, idempotency_key) DO NOTHING
     RETURNING meter_id, quantity, amount_base, coalesce(occurred_at, created_at) AS at
   ), roll AS (
     ${rollupInsert(`SELECT meter_id, ${hourOf("at")}, sum(quantity)::bigint, sum(amount_base)::bigint, count(*)::int FROM ins GROUP BY 1, 2`)}
   ), upd AS (
     UPDATE meters m SET ${accrueSet("s.total")}
       FROM (SELECT meter_id, sum(amount_base)::bigint AS total FROM ins GROUP BY meter_id) s
      WHERE m.id = s.meter_id
     RETURNING m.id
   )
   SELECT (SELECT count(*) FROM ins)::int AS inserted, (SELECT count(*) FROM upd)::int AS meters`,
);

const MAX_BIGINT = 9_223_372_036_854_775_807n;

export type UsageBatchResult =
  | { idempotencyKey: string; meterId: string; status: "accepted" | "duplicate"; usageRecordId: string }
  | { idempotencyKey: string; meterId: string; status: "refused"; error: { code: string; message: string } };

interface ExistingRecord {
  id: string;
  meter_id: string;
  idempotency_key: string;
  quantity: number;
  unit_price_base: string;
}

/** The same key with other usage: as POST /v1/meters/:id/usage answers it (400 there). */
function keyReused(record: UsageBatchRecordInput) {
  return new ValidationError(
    `The idempotencyKey '${record.idempotencyKey}' was already used on meter ${record.meterId} with different usage.`,
  );
}

function refused(record: UsageBatchRecordInput, err: DomainError): UsageBatchResult {
  return {
    idempotencyKey: record.idempotencyKey,
    meterId: record.meterId,
    status: "refused",
    error: { code: err.code, message: err.message },
  };
}

/** Why an open post-paid meter cannot take `amount` on top of what this batch already added, or null. */
function limitError(meter: Meter, added: bigint, amount: bigint): DomainError | null {
  const pending = { ...meter, accruedBase: meter.accruedBase + added };
  const overLimit = unbilledLimitError(pending, amount, "quantity");
  if (overLimit) return overLimit;
  if (meter.usedBase + added + amount > MAX_BIGINT) return outOfRangeError(meter.id);
  return null;
}

export async function recordUsageBatch(db: Sql, scope: Scope, records: UsageBatchRecordInput[]) {
  const meterIds = [...new Set(records.map((r) => r.meterId))];
  const meters = new Map(
    (await db.rows<MeterRow>(LOCK_METERS, [meterIds, scope.merchantId, scope.livemode])).map((row) => [row.id, meterFromRow(row)]),
  );

  const known = records.filter((r) => meters.has(r.meterId));
  const existing = new Map<string, ExistingRecord>();
  if (known.length > 0) {
    const rows = await db.rows<ExistingRecord>(FIND_RECORDS, [known.map((r) => r.meterId), known.map((r) => r.idempotencyKey)]);
    for (const row of rows) existing.set(pairKey(row.meter_id, row.idempotency_key), row);
  }

  const results: UsageBatchResult[] = [];
  // Keys judged earlier in this batch: the record's usage and the result it got.
  const seen = new Map<string, { record: UsageBatchRecordInput; result: UsageBatchResult }>();
  const added = new Map<string, bigint>(); // base units this batch adds per meter
  const insert = {
    ids: [] as string[],
    meterIds: [] as string[],
    keys: [] as string[],
    quantities: [] as number[],
    prices: [] as string[],
    amounts: [] as string[],
    timestamps: [] as (string | null)[],
  };

  for (const record of records) {
    const result = judge(record);
    results.push(result);
    seen.set(pairKey(record.meterId, record.idempotencyKey), { record, result });
  }

  function judge(record: UsageBatchRecordInput): UsageBatchResult {
    const meter = meters.get(record.meterId);
    if (!meter) return refused(record, new NotFoundError("meter", record.meterId));
    const key = pairKey(record.meterId, record.idempotencyKey);
    const earlier = seen.get(key);
    if (earlier) {
      if (!sameUsage(earlier.record.quantity, earlier.record.unitPriceMinor, record)) return refused(record, keyReused(record));
      return earlier.result.status === "refused" ? { ...earlier.result } : { ...earlier.result, status: "duplicate" };
    }
    const counted = existing.get(key);
    if (counted) {
      if (!sameUsage(counted.quantity, Number(counted.unit_price_base), record)) return refused(record, keyReused(record));
      return { idempotencyKey: record.idempotencyKey, meterId: record.meterId, status: "duplicate", usageRecordId: counted.id };
    }
    if (meter.prepaid) return refused(record, wrongTrustModel(meter, "a usage record"));
    if (meter.status === "closed") return refused(record, meterClosed(meter));
    if (meter.status === "past_due") return refused(record, new MeterPastDueError(meter.id));
    const amount = BigInt(record.quantity) * BigInt(record.unitPriceMinor);
    const before = added.get(meter.id) ?? 0n;
    const overLimit = limitError(meter, before, amount);
    if (overLimit) return refused(record, overLimit);
    added.set(meter.id, before + amount);
    const id = createId("usageRecord");
    insert.ids.push(id);
    insert.meterIds.push(meter.id);
    insert.keys.push(record.idempotencyKey);
    insert.quantities.push(record.quantity);
    insert.prices.push(String(record.unitPriceMinor));
    insert.amounts.push(amount.toString());
    insert.timestamps.push(record.timestamp ?? null);
    return { idempotencyKey: record.idempotencyKey, meterId: record.meterId, status: "accepted", usageRecordId: id };
  }

  if (insert.ids.length > 0) {
    let written: { inserted: number; meters: number } | undefined;
    try {
      [written] = await db.rows<{ inserted: number; meters: number }>(INSERT_AND_ACCRUE, [
        insert.ids,
        insert.meterIds,
        insert.keys,
        insert.quantities,
        insert.prices,
        insert.amounts,
        insert.timestamps,
      ]);
    } catch (err) {
      if (isOutOfRange(err)) throw outOfRangeError(insert.meterIds[0]);
      throw err;
    }
    // Under the meters' locks nobody else can have counted these keys since step 2: a shortfall is a bug,
    // and throwing rolls the whole batch back rather than answer "accepted" for a record not counted.
    if (written?.inserted !== insert.ids.length || written.meters !== added.size) {
      throw new InvariantViolation(
        `Usage batch wrote ${written?.inserted} of ${insert.ids.length} records on ${written?.meters} of ${added.size} meters.`,
      );
    }
  }

  const count = (status: UsageBatchResult["status"]) => results.filter((r) => r.status === status).length;
  return {
    object: "usage_batch" as const,
    accepted: count("accepted"),
    duplicates: count("duplicate"),
    refused: count("refused"),
    results,
  };
}

function pairKey(meterId: string, idempotencyKey: string) {
  return `${meterId}\u0000${idempotencyKey}`;
}

function sameUsage(quantity: number, unitPriceBase: number, record: UsageBatchRecordInput) {
  return quantity === record.quantity && unitPriceBase === record.unitPriceMinor;
}
