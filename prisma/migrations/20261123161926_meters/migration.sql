-- AlterTable
ALTER TABLE "payment_intents" ADD COLUMN     "meter_charge_key" TEXT,
ADD COLUMN     "meter_id" TEXT;

-- CreateTable
CREATE TABLE "meters" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "customer_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "prepaid" BOOLEAN NOT NULL,
    "payment_method" TEXT NOT NULL,
    "threshold_minor" INTEGER NOT NULL,
    "base_units_per_minor" BIGINT NOT NULL,
    "accrued_base" BIGINT NOT NULL DEFAULT 0,
    "reserved_base" BIGINT NOT NULL DEFAULT 0,
    "budget_base" BIGINT NOT NULL DEFAULT 0,
    "used_base" BIGINT NOT NULL DEFAULT 0,
    "billed_minor" BIGINT NOT NULL DEFAULT 0,
    "settlement_count" INTEGER NOT NULL DEFAULT 0,
    "settle_due_at" TIMESTAMPTZ(3),
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "closed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "meters_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "meter_usage_records" (
    "id" TEXT NOT NULL,
    "meter_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "unit_price_base" BIGINT NOT NULL,
    "amount_base" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "meter_usage_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "meter_reservations" (
    "id" TEXT NOT NULL,
    "meter_id" TEXT NOT NULL,
    "idempotency_key" TEXT,
    "status" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "unit_price_base" BIGINT NOT NULL,
    "amount_base" BIGINT NOT NULL,
    "release_reason" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "meter_reservations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "meters_merchant_id_livemode_created_at_id_idx" ON "meters"("merchant_id", "livemode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "meters_settle_due_at_idx" ON "meters"("settle_due_at");

-- CreateIndex
CREATE UNIQUE INDEX "meter_usage_records_meter_id_idempotency_key_key" ON "meter_usage_records"("meter_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "meter_reservations_status_expires_at_idx" ON "meter_reservations"("status", "expires_at");

-- CreateIndex
CREATE INDEX "meter_reservations_meter_id_status_idx" ON "meter_reservations"("meter_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "meter_reservations_meter_id_idempotency_key_key" ON "meter_reservations"("meter_id", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "payment_intents_meter_charge_key_key" ON "payment_intents"("meter_charge_key");

-- CreateIndex
CREATE INDEX "payment_intents_status_meter_id_idx" ON "payment_intents"("status", "meter_id");

-- CreateIndex
CREATE INDEX "payment_intents_meter_id_created_at_idx" ON "payment_intents"("meter_id", "created_at");

-- AddForeignKey
ALTER TABLE "meters" ADD CONSTRAINT "meters_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "meter_usage_records" ADD CONSTRAINT "meter_usage_records_meter_id_fkey" FOREIGN KEY ("meter_id") REFERENCES "meters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "meter_reservations" ADD CONSTRAINT "meter_reservations_meter_id_fkey" FOREIGN KEY ("meter_id") REFERENCES "meters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The database backs the meter's arithmetic: nothing negative, and a prepaid meter never meters or holds
-- more than its budget (the reservation's atomic UPDATE checks it first, this makes any bug an error).
ALTER TABLE "meters" ADD CONSTRAINT "meters_amounts_nonnegative"
  CHECK ("accrued_base" >= 0 AND "reserved_base" >= 0 AND "budget_base" >= 0 AND "used_base" >= 0 AND "billed_minor" >= 0 AND "threshold_minor" > 0 AND "base_units_per_minor" > 0);
ALTER TABLE "meters" ADD CONSTRAINT "meters_prepaid_within_budget" CHECK (NOT "prepaid" OR "used_base" + "reserved_base" <= "budget_base");
ALTER TABLE "meter_usage_records" ADD CONSTRAINT "meter_usage_records_positive" CHECK ("quantity" > 0 AND "amount_base" > 0);
ALTER TABLE "meter_reservations" ADD CONSTRAINT "meter_reservations_positive" CHECK ("quantity" > 0 AND "amount_base" > 0);
