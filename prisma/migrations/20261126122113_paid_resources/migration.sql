-- Hosted paid resources (xr_, see docs/x402.md): what a merchant sells at /x402/r/:id and /mpp/r/:id, priced in
-- integer minor units, once paid the service returns `content` or forwards the request to `url` (one of the two).
CREATE TABLE "paid_resources" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "url" TEXT,
    "content" JSONB,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "paid_resources_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "paid_resources_amount_check" CHECK ("amount" >= 1),
    CONSTRAINT "paid_resources_target_check" CHECK (("url" IS NULL) <> ("content" IS NULL))
);

CREATE INDEX "paid_resources_merchant_id_livemode_created_at_id_idx" ON "paid_resources"("merchant_id", "livemode", "created_at" DESC, "id" DESC);

ALTER TABLE "paid_resources" ADD CONSTRAINT "paid_resources_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A sale of a paid resource is an ordinary PaymentIntent that names it, `payer` is the protocol's payer, for x402 the signer address.
ALTER TABLE "payment_intents" ADD COLUMN "paid_resource_id" TEXT, ADD COLUMN "payer" TEXT;
CREATE INDEX "payment_intents_paid_resource_id_created_at_id_idx" ON "payment_intents"("paid_resource_id", "created_at" DESC, "id" DESC);
