-- AP2 v0.2 (docs/a2a.md AP2 v0.2) and the reusable spend counter (lib/spend-limits).

-- One budget counter per (key, period, currency): reserveSpend adds to spent with one
-- INSERT ... ON CONFLICT DO UPDATE ... WHERE spent + amount <= limit, so concurrent charges in any process
-- never pass the limit, the row is written in the transaction of the charge, and a rollback releases it.
CREATE TABLE "spend_counters" (
    "counter_key" TEXT NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "currency" TEXT NOT NULL,
    "spent" BIGINT NOT NULL,
    "uses" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spend_counters_pkey" PRIMARY KEY ("counter_key","period_start","currency"),
    CONSTRAINT "spend_counters_spent_check" CHECK ("spent" >= 0)
);

-- Trusted AP2 user keys: the root of every v0.2 mandate chain is signed by one of them (kid = thumbprint).
CREATE TABLE "ap2_buyer_keys" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "kid" TEXT NOT NULL,
    "jwk" JSONB NOT NULL,
    "name" TEXT,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ap2_buyer_keys_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ap2_buyer_keys_livemode_kid_key" ON "ap2_buyer_keys"("livemode", "kid");
CREATE INDEX "ap2_buyer_keys_merchant_id_livemode_created_at_idx" ON "ap2_buyer_keys"("merchant_id", "livemode", "created_at" DESC);

-- A v0.2 checkout the merchant signed (checkout_jwt), with the nonce the key binding of the mandates must carry:
-- paid once (used_at set by an atomic UPDATE ... WHERE used_at IS NULL in the paying transaction).
CREATE TABLE "ap2_checkouts" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "buyer_merchant_id" TEXT NOT NULL,
    "checkout_hash" TEXT NOT NULL,
    "checkout_jwt" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "items" JSONB NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "open_mandate_id" TEXT,
    "checkout_mandate_ref" TEXT,
    "payment_mandate_ref" TEXT,
    "payment_intent_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ap2_checkouts_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ap2_checkouts_checkout_hash_key" ON "ap2_checkouts"("checkout_hash");
CREATE UNIQUE INDEX "ap2_checkouts_nonce_key" ON "ap2_checkouts"("nonce");
CREATE INDEX "ap2_checkouts_merchant_id_livemode_created_at_idx" ON "ap2_checkouts"("merchant_id", "livemode", "created_at" DESC);
