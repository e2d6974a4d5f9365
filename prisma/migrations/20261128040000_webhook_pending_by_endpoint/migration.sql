-- The sender's fair claim (lib/webhooks/sender.ts) finds each endpoint with queued deliveries (a skip scan
-- over this index, with the earliest pending time of each) and reads at most its free slots' worth of due
-- rows, oldest first: its cost follows the caps and the number of endpoints with work, not the backlog.
-- Only pending rows (a small part of a table that keeps every delivery), so the index stays small.
-- CONCURRENTLY, alone in its migration (the JS schema engine runs a script statement by statement, outside
-- a transaction): writes to webhook_deliveries (fan-out, the sender) go on while it builds on a large table.
CREATE INDEX CONCURRENTLY "webhook_deliveries_pending_by_endpoint_idx" ON "webhook_deliveries" ("endpoint_id", "next_attempt_at") WHERE "status" = 'pending';
