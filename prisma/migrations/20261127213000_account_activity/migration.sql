-- The account activity log (lib/accounts/activity.ts): sign-ins, password and two-factor changes, keys,
-- OAuth consents and members, each written in the transaction of the change it tells about.
CREATE TABLE "account_activity" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT,
    "user_id" TEXT,
    "action" TEXT NOT NULL,
    "ip" TEXT,
    "user_agent" TEXT,
    "detail" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "account_activity_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "account_activity_merchant_id_created_at_id_idx" ON "account_activity"("merchant_id", "created_at" DESC, "id" DESC);
CREATE INDEX "account_activity_user_id_created_at_id_idx" ON "account_activity"("user_id", "created_at" DESC, "id" DESC);
CREATE INDEX "account_activity_created_at_idx" ON "account_activity"("created_at");
