-- Issue 31: where the live x402 money of a merchant goes, per network. A new address for a network replaces the
-- current one, which stays as history (replaced_at), and at most one current address per merchant and network.
CREATE TABLE "x402_payout_addresses" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "replaced_at" TIMESTAMPTZ(3),

    CONSTRAINT "x402_payout_addresses_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "x402_payout_addresses_current_key" ON "x402_payout_addresses" ("merchant_id", "network") WHERE "replaced_at" IS NULL;

CREATE INDEX "x402_payout_addresses_merchant_id_created_at_idx" ON "x402_payout_addresses" ("merchant_id", "created_at" DESC);

ALTER TABLE "x402_payout_addresses" ADD CONSTRAINT "x402_payout_addresses_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
