-- MPP challenges used to pay (docs/mpp.md): one row per challenge a `service` credential has paid, so a
-- replayed credential finds its challenge taken. The primary key is the guard (an INSERT ... ON CONFLICT DO
-- NOTHING that inserts nothing is a replay), never a read-then-write. Challenges of hosted resources are the
-- HMACs of the service itself (resource_id set), the own mppx server of a merchant issues its own (POST /mpp/verify,
-- resource_id NULL), hence the key per merchant and mode.
CREATE TABLE "mpp_challenges" (
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "challenge_id" TEXT NOT NULL,
    "resource_id" TEXT,
    "token_id" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "payment_intent_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mpp_challenges_pkey" PRIMARY KEY ("merchant_id", "livemode", "challenge_id")
);

CREATE UNIQUE INDEX "mpp_challenges_payment_intent_id_key" ON "mpp_challenges"("payment_intent_id");

ALTER TABLE "mpp_challenges" ADD CONSTRAINT "mpp_challenges_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
