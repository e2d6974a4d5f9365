-- Issue 29: a dynamically registered OAuth client nobody authorized within OAUTH_UNUSED_CLIENT_HOURS is deleted
-- by the tick. Each code issued stamps its client (in the consent's transaction), so "never authorized" is a
-- column of the client's own row, which the purge's DELETE re-checks on a row a consent has just stamped.
ALTER TABLE "oauth_clients" ADD COLUMN "last_authorized_at" TIMESTAMPTZ(3);

-- Clients already authorized before this migration: their latest code or grant.
UPDATE "oauth_clients" c SET "last_authorized_at" = u.at
  FROM (
    SELECT "client_id", max("created_at") AS at FROM (
      SELECT "client_id", "created_at" FROM "oauth_grants"
      UNION ALL
      SELECT "client_id", "created_at" FROM "oauth_authorization_codes"
    ) AS used GROUP BY "client_id"
  ) AS u
 WHERE u."client_id" = c."id";

-- The purge reads only never-authorized clients, oldest first.
CREATE INDEX "oauth_clients_never_authorized_idx" ON "oauth_clients" ("created_at") WHERE "last_authorized_at" IS NULL;
