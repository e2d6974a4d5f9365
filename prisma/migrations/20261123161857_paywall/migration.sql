-- AlterTable
ALTER TABLE "payment_intents" ADD COLUMN     "payer_merchant_id" TEXT,
ADD COLUMN     "payer_request_key" TEXT,
ADD COLUMN     "sku" TEXT;

-- CreateTable
CREATE TABLE "paywall_redemptions" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "payment_intent_id" TEXT NOT NULL,
    "request_digest" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "paywall_redemptions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "paywall_redemptions_merchant_id_livemode_payment_intent_id_key" ON "paywall_redemptions"("merchant_id", "livemode", "payment_intent_id");

-- CreateIndex
CREATE UNIQUE INDEX "payment_intents_payer_request_key_key" ON "payment_intents"("payer_request_key");

