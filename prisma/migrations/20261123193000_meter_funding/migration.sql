-- Prepaid meters are funded up front: funding PaymentIntents raise the budget, unused funds are refunded at close.
ALTER TABLE "meters" ADD COLUMN "funded_minor" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "meters" ADD COLUMN "refunded_minor" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "meters" ADD COLUMN "funding_count" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "meters" ADD COLUMN "request_key" TEXT;
CREATE UNIQUE INDEX "meters_request_key_key" ON "meters"("request_key");
ALTER TABLE "meters" ADD CONSTRAINT "meters_refunded_within_funded" CHECK (refunded_minor >= 0 AND refunded_minor <= funded_minor);
ALTER TABLE "payment_intents" ADD COLUMN "meter_funding" BOOLEAN NOT NULL DEFAULT false;
