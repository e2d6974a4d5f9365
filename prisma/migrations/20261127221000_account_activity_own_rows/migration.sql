-- The Activity page (lib/accounts/list-activity.ts) reads a merchant's rows and, for each of its users, the
-- rows that concern the user alone (merchant_id null: sign-ins, password changes): keyset pages on this
-- index, so a page reads at most its size per user, however long the history.
CREATE INDEX "account_activity_user_own_idx" ON "account_activity"("user_id", "created_at" DESC, "id" DESC) WHERE "merchant_id" IS NULL;
