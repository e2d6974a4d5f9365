-- Two-factor sign-in (lib/two-factor/): a TOTP secret per user (sealed), its single-use recovery codes
-- (SHA-256 only), and on each dashboard session the time it proved the second factor.
CREATE TABLE "user_two_factor" (
    "user_id" TEXT NOT NULL,
    "secret_sealed" TEXT NOT NULL,
    "enabled_at" TIMESTAMPTZ(3),
    "last_used_step" BIGINT,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "blocked_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "user_two_factor_pkey" PRIMARY KEY ("user_id")
);
ALTER TABLE "user_two_factor" ADD CONSTRAINT "user_two_factor_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "recovery_codes" (
    "user_id" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "used_at" TIMESTAMPTZ(3),
    CONSTRAINT "recovery_codes_pkey" PRIMARY KEY ("user_id", "code_hash")
);
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "dashboard_sessions" ADD COLUMN "two_factor_at" TIMESTAMPTZ(3);
