-- The evidence pack of a dispute (docs/disputes.md, "The evidence pack") reads a payment's x402 authorization by the
-- payment's id: an index lookup, never a scan of the merchant's authorizations.
CREATE INDEX "x402_authorizations_payment_intent_id_idx" ON "x402_authorizations"("payment_intent_id");
