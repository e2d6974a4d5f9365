// The per-meter, per-hour usage rollup (meter_usage_hourly) that usage summaries read
// (usage-summary.ts). Every statement that meters usage adds to it in the same statement, as a CTE:
// a usage record (record-usage.ts), a batch (record-usage-batch.ts, one row per meter and hour of the
// batch), a committed reservation (finish-reservation.ts). Each of them has already locked the meter's
// row when it reaches the rollup (its CTE reads the rows the meter's UPDATE or the batch's insert
// produced, and a batch locks its meters first), so the hour row is only ever contended by writers
// already queued on that meter: it adds no lock wait and no deadlock order of its own. Hours are UTC.

/** An INSERT ... ON CONFLICT DO UPDATE adding `source`'s rows (columns meter_id, hour_start, quantity,
 * amount_base, records; at most one row per meter and hour) to the rollup. */
export function rollupInsert(source: string): string {
  return `INSERT INTO meter_usage_hourly AS h (meter_id, hour_start, quantity, amount_base, records)
     ${source}
     ON CONFLICT (meter_id, hour_start) DO UPDATE
       SET quantity = h.quantity + EXCLUDED.quantity, amount_base = h.amount_base + EXCLUDED.amount_base, records = h.records + EXCLUDED.records`;
}

/** The UTC hour an SQL timestamptz expression falls in. */
export function hourOf(at: string): string {
  return `date_trunc('hour', ${at}, 'UTC')`;
}
