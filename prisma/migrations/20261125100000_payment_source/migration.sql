-- How each PaymentIntent and order came (docs/api-reference.md "One ledger under every protocol"): api, pay_page,
-- paywall, meter, spt, and the protocol paths (x402, mpp, acp, a2a, ap2, mcp). Fixed at creation.
ALTER TABLE "payment_intents" ADD COLUMN "source" TEXT NOT NULL DEFAULT 'api';
ALTER TABLE "orders" ADD COLUMN "source" TEXT NOT NULL DEFAULT 'api';

-- Backfill: payments of a meter carry meter_id, paywall payments their sku, and everything else was opened
-- through the API (a pay link made in the dashboard before this column existed cannot be told apart: api).
UPDATE "payment_intents" SET "source" = 'meter' WHERE "meter_id" IS NOT NULL;
UPDATE "payment_intents" SET "source" = 'paywall' WHERE "meter_id" IS NULL AND "sku" IS NOT NULL;
UPDATE "orders" o SET "source" = pi."source" FROM "payment_intents" pi WHERE pi."id" = o."payment_intent_id" AND pi."source" <> 'api';

-- Every writer names the source from now on (no silent default).
ALTER TABLE "payment_intents" ALTER COLUMN "source" DROP DEFAULT;
ALTER TABLE "orders" ALTER COLUMN "source" DROP DEFAULT;

-- GET /v1/payment_intents?source= and /v1/orders?source=, newest first.
CREATE INDEX "payment_intents_merchant_id_livemode_source_created_at_id_idx" ON "payment_intents"("merchant_id", "livemode", "source", "created_at" DESC, "id" DESC);
CREATE INDEX "orders_merchant_id_livemode_source_created_at_id_idx" ON "orders"("merchant_id", "livemode", "source", "created_at" DESC, "id" DESC);
