-- When the usage happened, as the client stated it (the `timestamp` of POST /v1/meters/usage_batches),
-- NULL when not given: then it happened when it was recorded (created_at). A nullable column without a
-- default is added without rewriting the table.
ALTER TABLE "meter_usage_records" ADD COLUMN "occurred_at" TIMESTAMPTZ(3);
