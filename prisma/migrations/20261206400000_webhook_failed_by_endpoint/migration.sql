-- The failed deliveries of an endpoint, newest first: the failed-deliveries list (lib/webhooks/list-failed-deliveries.ts,
-- by the merchant's endpoints) and "Replay failed" (lib/webhooks/endpoint-health.ts, one endpoint's since a time).
-- It replaces the (status, next_attempt_at) index, which every delivery wrote three times (queued, claimed,
-- recorded) to serve only these reads: this one holds only failed rows, so a delivered one never enters it.
-- CONCURRENTLY, alone in its migration (the JS schema engine runs a script statement by statement, outside a transaction).
CREATE INDEX CONCURRENTLY "webhook_deliveries_failed_by_endpoint_idx" ON "webhook_deliveries" ("endpoint_id", "created_at") WHERE "status" = 'failed';
