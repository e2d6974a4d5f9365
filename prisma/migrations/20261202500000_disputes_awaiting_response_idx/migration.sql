-- The dashboard's Disputes badge counts the disputes waiting for the merchant's response through this partial
-- index: bounded by the disputes still open, never a scan of the merchant's history.
CREATE INDEX "disputes_awaiting_response_idx" ON "disputes" ("merchant_id", "livemode", "evidence_due_by")
  WHERE "status" IN ('needs_response', 'warning_needs_response');
