-- Teams (docs/dashboard.md, "Team"): memberships with a role, emailed invitations, and the merchant a
-- dashboard session has selected. Every existing user becomes the owner of the merchant it belonged to;
-- users.merchant_id then goes: a user may belong to several merchants, and the membership is the one
-- record of where (a column that still named "the" merchant would also delete a user in three teams
-- with the first one).
CREATE TABLE "memberships" (
    "merchant_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "memberships_pkey" PRIMARY KEY ("merchant_id", "user_id"),
    CONSTRAINT "memberships_role_check" CHECK ("role" IN ('owner', 'admin', 'developer', 'viewer'))
);
CREATE INDEX "memberships_user_id_created_at_idx" ON "memberships"("user_id", "created_at");
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "memberships" ("merchant_id", "user_id", "role", "created_at")
SELECT "merchant_id", "id", 'owner', "created_at" FROM "users";

ALTER TABLE "users" DROP CONSTRAINT "users_merchant_id_fkey";
ALTER TABLE "users" DROP COLUMN "merchant_id";
ALTER TABLE "users" ADD COLUMN "name" TEXT;

CREATE TABLE "invitations" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "invitations_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "invitations_role_check" CHECK ("role" IN ('owner', 'admin', 'developer', 'viewer'))
);
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");
CREATE INDEX "invitations_merchant_id_created_at_id_idx" ON "invitations"("merchant_id", "created_at" DESC, "id" DESC);
CREATE INDEX "invitations_invited_by_id_idx" ON "invitations"("invited_by_id");
CREATE INDEX "invitations_expires_at_idx" ON "invitations"("expires_at");
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_id_fkey" FOREIGN KEY ("invited_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "dashboard_sessions" ADD COLUMN "merchant_id" TEXT;
ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "dashboard_sessions_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE SET NULL ON UPDATE CASCADE;
