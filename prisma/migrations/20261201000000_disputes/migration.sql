-- Issue 36 items 1 and 2: disputes (docs/disputes.md).
--
-- disputes: one row per disputed PaymentIntent (the unique index on payment_intent_id: a payment is never disputed
-- twice, whoever races). `decide_at` is when the tick next acts on an open dispute: its evidence deadline while it
-- needs a response (then it is lost, or an inquiry closes), the test rail's decision a few seconds after evidence
-- is submitted: null once closed. The money it holds moves through the ledger: two accounts are added, `disputed`
-- (the amount the card network holds back from the merchant) and `dispute_fees` (the dispute fee).
CREATE TABLE "disputes" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "payment_intent_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "fee" INTEGER NOT NULL,
    "evidence" JSONB NOT NULL DEFAULT '{}',
    "evidence_due_by" TIMESTAMPTZ(3) NOT NULL,
    "evidence_submitted_at" TIMESTAMPTZ(3),
    "decide_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "disputes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "disputes_payment_intent_id_key" ON "disputes" ("payment_intent_id");
CREATE INDEX "disputes_merchant_id_livemode_created_at_id_idx" ON "disputes" ("merchant_id", "livemode", "created_at" DESC, "id" DESC);
CREATE INDEX "disputes_decide_at_idx" ON "disputes" ("decide_at");
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_merchant_id_fkey"
  FOREIGN KEY ("merchant_id") REFERENCES "merchants" ("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_payment_intent_id_fkey"
  FOREIGN KEY ("payment_intent_id") REFERENCES "payment_intents" ("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_amounts_valid" CHECK ("amount" > 0 AND "fee" >= 0);

-- The test rail's disputes (pm_card_createDispute*): the tick finds the captured test payments made with one by
-- this partial index, never by a scan of payment_intents.
CREATE INDEX "payment_intents_test_dispute_idx" ON "payment_intents" ("captured_at")
  WHERE "livemode" = false AND "payment_method" LIKE 'pm_card_createDispute%';

ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_account_known";
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_known"
  CHECK ("account" IN ('payer', 'merchant_pending', 'merchant_payable', 'merchant_paid_out', 'disputed', 'dispute_fees'));
