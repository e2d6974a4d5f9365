-- x402 `exact` authorizations settled by this service (see docs/x402.md). An EIP-3009 nonce is single-use per
-- token contract and authorizer, so the key is (network, asset, payer, nonce), all lower-case: a signed payment
-- replayed, in any process, finds its row and is refused. Inserted in the settling transaction.
CREATE TABLE "x402_authorizations" (
    "network" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "payer" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "value" TEXT NOT NULL,
    "payment_intent_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "x402_authorizations_pkey" PRIMARY KEY ("network", "asset", "payer", "nonce")
);

CREATE INDEX "x402_authorizations_merchant_id_livemode_created_at_idx" ON "x402_authorizations"("merchant_id", "livemode", "created_at" DESC);

ALTER TABLE "x402_authorizations" ADD CONSTRAINT "x402_authorizations_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
