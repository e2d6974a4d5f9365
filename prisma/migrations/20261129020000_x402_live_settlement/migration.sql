-- Issue 31: live x402 settled on chain. The authorization's claim records the transaction that carries it
-- (recorded once signed, before it is sent), the lease of the one process that may send it (until when, and
-- its token), the authorization's validBefore (after which it can never execute), and why the chain refused it. A live capture records its on-chain settlement on the PaymentIntent, and the
-- money that went straight to the merchant's wallet is booked to merchant_paid_out (non-custodial).
ALTER TABLE "x402_authorizations" ADD COLUMN "transaction_hash" TEXT;
ALTER TABLE "x402_authorizations" ADD COLUMN "broadcast_until" TIMESTAMPTZ(3);
ALTER TABLE "x402_authorizations" ADD COLUMN "broadcast_token" TEXT;
ALTER TABLE "x402_authorizations" ADD COLUMN "valid_before" BIGINT;
ALTER TABLE "x402_authorizations" ADD COLUMN "refusal_reason" TEXT;
ALTER TABLE "payment_intents" ADD COLUMN "settlement" JSONB;
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_account_known";
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_known"
  CHECK ("account" IN ('payer', 'merchant_pending', 'merchant_payable', 'merchant_paid_out'));
