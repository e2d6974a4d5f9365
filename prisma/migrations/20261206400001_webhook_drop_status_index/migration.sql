-- Replaced by webhook_deliveries_failed_by_endpoint_idx (the migration before): the sender's claim reads the
-- partial indexes of pending and sending rows, the failed-deliveries reads the new one.
-- CONCURRENTLY, alone in its migration: the sender writes on while the index goes.
DROP INDEX CONCURRENTLY IF EXISTS "webhook_deliveries_status_next_attempt_at_idx";
