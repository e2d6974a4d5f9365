// A meter's usage by time window (GET /v1/meters/:id/usage_summary, the dashboard's meter chart), read
// from the per-hour rollup (meter_usage_hourly, usage-rollup-sql.ts), never from the records: at most one
// row per hour of the window, whatever the meter's volume. A day is the sum of its 24 UTC hours. Every
// bucket of the window is answered, empty ones with zeros, oldest first.
//
// The window: buckets overlapping [from, to), widened to whole buckets; `to` defaults to now (its bucket
// included), `from` to one default span of buckets before that (24 hours, or 30 days by day). At most 744 hourly buckets (31 days) or
// 366 daily ones, so an answer is always small.
import type { z } from "zod";
import { statement, type Sql } from "../db";
import { ValidationError } from "../errors";
import type { Scope } from "../scope";
import { readMeterSql } from "./meter-row";
import type { MeterUsageSummaryObject, UsageSummaryInput, UsageSummaryInterval } from "./schemas";

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

export const USAGE_SUMMARY_LIMITS: Record<UsageSummaryInterval, { bucketMs: number; defaultSpanMs: number; maxBuckets: number }> = {
  hour: { bucketMs: HOUR_MS, defaultSpanMs: 24 * HOUR_MS, maxBuckets: 31 * 24 },
  day: { bucketMs: DAY_MS, defaultSpanMs: 30 * DAY_MS, maxBuckets: 366 },
};

// $1 meter, $2 from, $3 to (both whole buckets), $4 'hour' | 'day'. Reads the rollup's primary key range.
const SUMMARY = statement(
  "meter_usage_summary",
  `SELECT date_trunc($4, hour_start, 'UTC') AS start, sum(quantity)::text AS quantity, sum(amount_base)::text AS amount_base
     FROM meter_usage_hourly
    WHERE meter_id = $1 AND hour_start >= $2 AND hour_start < $3
    GROUP BY 1 ORDER BY 1`,
);

export interface UsageSummaryBucket {
  start: string;
  quantity: number;
  amountBase: number;
}

/** The window a query asks for, widened to whole buckets; a ValidationError when it is not a window. */
export function summaryWindow(input: UsageSummaryInput, now = Date.now()) {
  const { bucketMs, defaultSpanMs, maxBuckets } = USAGE_SUMMARY_LIMITS[input.interval];
  const to = input.to ? Date.parse(input.to) : now;
  // UTC hours and days are whole multiples of their length since the epoch. By default the window is the
  // default span of whole buckets ending with the one `to` falls in (24 hours: this hour and the 23 before).
  const end = Math.max(Math.ceil(to / bucketMs), Math.floor(to / bucketMs) + (input.to ? 0 : 1)) * bucketMs;
  const from = input.from ? Date.parse(input.from) : end - defaultSpanMs;
  if (!(from < to)) throw new ValidationError("from must be before to.", [{ path: "from", message: "must be before to" }]);
  const start = Math.floor(from / bucketMs) * bucketMs;
  if ((end - start) / bucketMs > maxBuckets) {
    const span = input.interval === "hour" ? "31 days" : "366 days";
    throw new ValidationError(`A usage summary by ${input.interval} spans at most ${span} (${maxBuckets} buckets).`, [
      { path: "from", message: `at most ${maxBuckets} ${input.interval}s before to` },
    ]);
  }
  return { start, end, bucketMs };
}

export async function getUsageSummary(db: Sql, scope: Scope, meterId: string, input: UsageSummaryInput, now = Date.now()) {
  const { start, end, bucketMs } = summaryWindow(input, now);
  const meter = await readMeterSql(db, scope, meterId); // 404 for another merchant's meter or mode
  const rows = await db.rows<{ start: Date; quantity: string; amount_base: string }>(SUMMARY, [
    meter.id,
    new Date(start),
    new Date(end),
    input.interval,
  ]);
  const found = new Map(rows.map((row) => [row.start.getTime(), row]));
  const data: UsageSummaryBucket[] = [];
  for (let at = start; at < end; at += bucketMs) {
    const row = found.get(at);
    data.push({
      start: new Date(at).toISOString(),
      quantity: row ? Number(row.quantity) : 0,
      amountBase: row ? Number(row.amount_base) : 0,
    });
  }
  return {
    object: "usage_summary" as const,
    meterId: meter.id,
    interval: input.interval,
    from: new Date(start).toISOString(),
    to: new Date(end).toISOString(),
    baseUnitsPerMinor: Number(meter.baseUnitsPerMinor),
    data,
  } satisfies z.input<typeof MeterUsageSummaryObject>;
}
