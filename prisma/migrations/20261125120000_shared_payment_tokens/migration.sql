-- Shared payment tokens (docs/shared-payment-tokens.md): a payer's scoped, single-use credential.
-- The row is locked by its redemption, so one token pays at most once, across processes.
CREATE TABLE "shared_payment_tokens" (
    "id" TEXT NOT NULL,
    "payer_merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "payment_method" TEXT NOT NULL,
    "max_amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "merchant_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "charge_attempts" INTEGER NOT NULL DEFAULT 0,
    "redeemed_at" TIMESTAMPTZ(3),
    "redeemed_by_merchant_id" TEXT,
    "redeemed_amount" INTEGER,
    "payment_intent_id" TEXT,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shared_payment_tokens_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "shared_payment_tokens_max_amount_check" CHECK ("max_amount" > 0),
    CONSTRAINT "shared_payment_tokens_redeemed_check" CHECK (("status" = 'redeemed') = ("payment_intent_id" IS NOT NULL))
);

CREATE UNIQUE INDEX "shared_payment_tokens_payment_intent_id_key" ON "shared_payment_tokens"("payment_intent_id");
CREATE INDEX "shared_payment_tokens_payer_merchant_id_livemode_created_at_id_idx" ON "shared_payment_tokens"("payer_merchant_id", "livemode", "created_at" DESC, "id" DESC);

ALTER TABLE "shared_payment_tokens" ADD CONSTRAINT "shared_payment_tokens_payer_merchant_id_fkey" FOREIGN KEY ("payer_merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
