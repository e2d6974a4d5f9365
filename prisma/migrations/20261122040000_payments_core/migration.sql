-- CreateTable
CREATE TABLE "checkouts" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "items" JSONB NOT NULL DEFAULT '[]',
    "description" TEXT,
    "customer_id" TEXT,
    "success_url" TEXT,
    "cancel_url" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "product_ref" TEXT,
    "payment_intent_id" TEXT NOT NULL,
    "order_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "checkouts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_intents" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "amount_captured" INTEGER NOT NULL DEFAULT 0,
    "amount_refunded" INTEGER NOT NULL DEFAULT 0,
    "currency" TEXT NOT NULL,
    "checkout_id" TEXT,
    "order_id" TEXT,
    "customer_id" TEXT,
    "payment_method" TEXT,
    "rail" TEXT,
    "rail_charge_id" TEXT,
    "failure_reason" TEXT,
    "captured_at" TIMESTAMPTZ(3),
    "settled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_intents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "checkout_id" TEXT,
    "payment_intent_id" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "amount_refunded" INTEGER NOT NULL DEFAULT 0,
    "currency" TEXT NOT NULL,
    "items" JSONB NOT NULL DEFAULT '[]',
    "customer_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "refunds" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "payment_intent_id" TEXT NOT NULL,
    "order_id" TEXT,
    "reason" TEXT,
    "rail_refund_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "refunds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" BIGSERIAL NOT NULL,
    "posting_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "account" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "payment_intent_id" TEXT NOT NULL,
    "refund_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_attempts" (
    "id" TEXT NOT NULL,
    "payment_intent_id" TEXT NOT NULL,
    "rail" TEXT NOT NULL,
    "charge_key" TEXT NOT NULL,
    "payment_method" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "rail_charge_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "test_rail_charges" (
    "id" TEXT NOT NULL,
    "charge_key" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "payment_method" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "decline_reason" TEXT,
    "amount_refunded" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "test_rail_charges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "test_rail_refunds" (
    "id" TEXT NOT NULL,
    "refund_key" TEXT NOT NULL,
    "charge_id" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "test_rail_refunds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "test_wallets" (
    "customer_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "balance" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "test_wallets_pkey" PRIMARY KEY ("customer_id","currency")
);

-- CreateIndex
CREATE UNIQUE INDEX "checkouts_payment_intent_id_key" ON "checkouts"("payment_intent_id");

-- CreateIndex
CREATE UNIQUE INDEX "checkouts_order_id_key" ON "checkouts"("order_id");

-- CreateIndex
CREATE INDEX "checkouts_merchant_id_livemode_created_at_id_idx" ON "checkouts"("merchant_id", "livemode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "checkouts_status_expires_at_idx" ON "checkouts"("status", "expires_at");

-- CreateIndex
CREATE INDEX "payment_intents_merchant_id_livemode_created_at_id_idx" ON "payment_intents"("merchant_id", "livemode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "payment_intents_status_captured_at_idx" ON "payment_intents"("status", "captured_at");

-- CreateIndex
CREATE UNIQUE INDEX "orders_payment_intent_id_key" ON "orders"("payment_intent_id");

-- CreateIndex
CREATE INDEX "orders_merchant_id_livemode_created_at_id_idx" ON "orders"("merchant_id", "livemode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "refunds_merchant_id_livemode_created_at_id_idx" ON "refunds"("merchant_id", "livemode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "refunds_payment_intent_id_idx" ON "refunds"("payment_intent_id");

-- CreateIndex
CREATE INDEX "ledger_entries_posting_id_idx" ON "ledger_entries"("posting_id");

-- CreateIndex
CREATE INDEX "ledger_entries_merchant_id_livemode_account_currency_idx" ON "ledger_entries"("merchant_id", "livemode", "account", "currency");

-- CreateIndex
CREATE INDEX "ledger_entries_payment_intent_id_idx" ON "ledger_entries"("payment_intent_id");

-- CreateIndex
CREATE INDEX "events_merchant_id_livemode_created_at_id_idx" ON "events"("merchant_id", "livemode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "events_merchant_id_livemode_type_created_at_id_idx" ON "events"("merchant_id", "livemode", "type", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "events_created_at_idx" ON "events"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "payment_attempts_charge_key_key" ON "payment_attempts"("charge_key");

-- CreateIndex
CREATE INDEX "payment_attempts_payment_intent_id_idx" ON "payment_attempts"("payment_intent_id");

-- CreateIndex
CREATE UNIQUE INDEX "test_rail_charges_charge_key_key" ON "test_rail_charges"("charge_key");

-- CreateIndex
CREATE UNIQUE INDEX "test_rail_refunds_refund_key_key" ON "test_rail_refunds"("refund_key");

-- CreateIndex
CREATE INDEX "test_rail_refunds_charge_id_idx" ON "test_rail_refunds"("charge_id");

-- AddForeignKey
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- ---------------------------------------------------------------------------------------------
-- Hand-written guarantees (not expressible in schema.prisma)
-- ---------------------------------------------------------------------------------------------

-- Amounts: never negative, never refund more than captured, never capture more than the amount.
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_amounts_valid"
  CHECK ("amount" > 0 AND "amount_captured" >= 0 AND "amount_captured" <= "amount"
         AND "amount_refunded" >= 0 AND "amount_refunded" <= "amount_captured");
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts_valid"
  CHECK ("amount" > 0 AND "amount_refunded" >= 0 AND "amount_refunded" <= "amount");
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_amount_positive" CHECK ("amount" > 0);
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_amount_nonzero" CHECK ("amount" <> 0);
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_known"
  CHECK ("account" IN ('payer', 'merchant_pending', 'merchant_payable'));
ALTER TABLE "test_wallets" ADD CONSTRAINT "test_wallets_balance_nonnegative" CHECK ("balance" >= 0);
ALTER TABLE "test_rail_charges" ADD CONSTRAINT "test_rail_charges_refund_valid"
  CHECK ("amount_refunded" >= 0 AND "amount_refunded" <= "amount");

-- At most one charge attempt in flight per PaymentIntent.
CREATE UNIQUE INDEX "payment_attempts_one_pending" ON "payment_attempts" ("payment_intent_id") WHERE "status" = 'pending';

-- (Function bodies are E'' strings with each semicolon written \073 and each quote \047: the migration
-- runner of the JS schema engine splits the script at every semicolon, even inside quotes.)

-- Double-entry: at commit, every posting touched by the transaction sums to zero per currency, and all its
-- legs belong to one merchant and mode. Deferred, so a posting's legs may be inserted one by one.
CREATE FUNCTION ledger_check_posting_balanced() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  bad record\073
BEGIN
  SELECT currency, sum(amount) AS total INTO bad
    FROM ledger_entries WHERE posting_id = NEW.posting_id
   GROUP BY currency HAVING sum(amount) <> 0 LIMIT 1\073
  IF FOUND THEN
    RAISE EXCEPTION \047ledger posting % is unbalanced in % by %\047, NEW.posting_id, bad.currency, bad.total
      USING ERRCODE = \047check_violation\047\073
  END IF\073
  IF (SELECT count(DISTINCT (merchant_id, livemode)) FROM ledger_entries WHERE posting_id = NEW.posting_id) > 1 THEN
    RAISE EXCEPTION \047ledger posting % spans several merchants or modes\047, NEW.posting_id
      USING ERRCODE = \047check_violation\047\073
  END IF\073
  RETURN NULL\073
END
';

CREATE CONSTRAINT TRIGGER "ledger_posting_balanced"
  AFTER INSERT ON "ledger_entries" DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_check_posting_balanced();

-- The ledger is append-only: corrections are new postings, never edits.
CREATE FUNCTION ledger_forbid_change() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  RAISE EXCEPTION \047ledger_entries is append-only\047 USING ERRCODE = \047restrict_violation\047\073
END
';

CREATE TRIGGER "ledger_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
