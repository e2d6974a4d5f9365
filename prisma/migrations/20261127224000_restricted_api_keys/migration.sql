-- Restricted API keys (rk_test_/rk_live_) and rolling (docs/restricted-keys.md): a restricted key's grants
-- (null for a secret key: full access), a rolled key's end of grace, and the key a roll replaced.
ALTER TABLE "api_keys" ADD COLUMN "permissions" JSONB;
ALTER TABLE "api_keys" ADD COLUMN "expires_at" TIMESTAMPTZ(3);
ALTER TABLE "api_keys" ADD COLUMN "rolled_from_id" TEXT;
