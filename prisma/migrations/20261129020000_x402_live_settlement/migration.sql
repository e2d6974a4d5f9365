-- Issue 31: live x402 settled on chain. The authorization's claim records the transaction that carries it
-- (recorded as soon as it is broadcast, before any wait), the lease of the one process broadcasting it, and
-- why the chain refused it. A live capture records its on-chain settlement on the PaymentIntent, and the
-- money that went straight to the merchant's wallet is booked to merchant_paid_out (non-custodial).
ALTER TABLE "x402_authorizations" ADD COLUMN "transaction_hash" TEXT;
ALTER TABLE "x402_authorizations" ADD COLUMN "broadcast_until" TIMESTAMPTZ(3);
ALTER TABLE "x402_authorizations" ADD COLUMN "refusal_reason" TEXT;
ALTER TABLE "payment_intents" ADD COLUMN "settlement" JSONB;
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_account_known";
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_known"
  CHECK ("account" IN ('payer', 'merchant_pending', 'merchant_payable', 'merchant_paid_out'));
