-- Usage summaries by time window (issue 19, item 4): a per-meter, per-hour rollup of metered usage, kept
-- in the same statement as the usage it counts (a usage record, a batch, a committed reservation) with
-- INSERT ... ON CONFLICT DO UPDATE, so GET /v1/meters/:id/usage_summary reads at most one row per hour
-- instead of scanning records. Hours are UTC, a day is the sum of its 24 hours.
CREATE TABLE "meter_usage_hourly" (
    "meter_id" TEXT NOT NULL,
    "hour_start" TIMESTAMPTZ(3) NOT NULL,
    "quantity" BIGINT NOT NULL DEFAULT 0,
    "amount_base" BIGINT NOT NULL DEFAULT 0,
    "records" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "meter_usage_hourly_pkey" PRIMARY KEY ("meter_id","hour_start")
);

ALTER TABLE "meter_usage_hourly" ADD CONSTRAINT "meter_usage_hourly_meter_id_fkey" FOREIGN KEY ("meter_id") REFERENCES "meters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Usage already recorded: post-paid records by when they happened, committed reservations by when they
-- were committed (their last update).
INSERT INTO "meter_usage_hourly" ("meter_id", "hour_start", "quantity", "amount_base", "records")
SELECT u.meter_id, u.hour_start, sum(u.quantity), sum(u.amount_base), sum(u.records)
  FROM (
    SELECT meter_id, date_trunc('hour', coalesce(occurred_at, created_at), 'UTC') AS hour_start, quantity::bigint AS quantity, amount_base, 1 AS records
      FROM "meter_usage_records"
    UNION ALL
    SELECT meter_id, date_trunc('hour', updated_at, 'UTC'), quantity::bigint, amount_base, 1
      FROM "meter_reservations" WHERE status = 'committed'
  ) u
 GROUP BY u.meter_id, u.hour_start;
