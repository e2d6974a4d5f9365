-- AlterTable: the attempt's number within its delivery (1 = first try), backfilled in attempt order.
ALTER TABLE "webhook_delivery_attempts" ADD COLUMN "attempt" INTEGER NOT NULL DEFAULT 1;
UPDATE "webhook_delivery_attempts" a SET "attempt" = n.rn FROM (SELECT "id", row_number() OVER (PARTITION BY "delivery_id" ORDER BY "attempted_at", "id") AS rn FROM "webhook_delivery_attempts") n WHERE a."id" = n."id";
ALTER TABLE "webhook_delivery_attempts" ALTER COLUMN "attempt" DROP DEFAULT;

-- CreateIndex: a meter's recent usage, newest first.
CREATE INDEX "meter_usage_records_meter_id_created_at_id_idx" ON "meter_usage_records"("meter_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "meter_reservations_meter_id_created_at_id_idx" ON "meter_reservations"("meter_id", "created_at" DESC, "id" DESC);
