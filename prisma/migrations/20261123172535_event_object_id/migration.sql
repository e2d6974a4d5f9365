-- The id of the object an event describes (data.object.id) as an indexed column: an order's or a
-- PaymentIntent's timeline is then an index lookup instead of a scan of the merchant's events.
-- AlterTable
ALTER TABLE "events" ADD COLUMN     "object_id" TEXT;

-- Backfill the events written before this column existed.
UPDATE "events" SET "object_id" = "data"->'object'->>'id' WHERE "object_id" IS NULL;

-- CreateIndex
CREATE INDEX "events_merchant_id_livemode_object_id_idx" ON "events"("merchant_id", "livemode", "object_id");
