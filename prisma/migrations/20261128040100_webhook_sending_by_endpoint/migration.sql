-- The attempts in flight, by endpoint: the sender's claim counts the live leases per endpoint and per
-- merchant (its caps) and finds the leases that ran out, reading only the `sending` rows (as many as the
-- attempts in flight across processes) instead of every row of that status's range with a heap visit each.
-- CONCURRENTLY, alone in its migration, as 20261128040000.
CREATE INDEX CONCURRENTLY "webhook_deliveries_sending_by_endpoint_idx" ON "webhook_deliveries" ("endpoint_id", "locked_until") WHERE "status" = 'sending';
