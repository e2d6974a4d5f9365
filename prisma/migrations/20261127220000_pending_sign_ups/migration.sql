-- Sign-ups pending their emailed link (lib/auth/pending-sign-ups.ts): each sign-up keeps its own name,
-- email and password hash under its own single-use token, the merchant and its user are created only when
-- that link is used with that sign-up's password (no account pre-hijacking, docs/dashboard.md "Sign-up").
CREATE TABLE "pending_sign_ups" (
    "token_hash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    CONSTRAINT "pending_sign_ups_pkey" PRIMARY KEY ("token_hash")
);
CREATE INDEX "pending_sign_ups_email_idx" ON "pending_sign_ups"("email");
CREATE INDEX "pending_sign_ups_expires_at_idx" ON "pending_sign_ups"("expires_at");

-- Accounts the old sign-up made before its link was used, never confirmed: their password may be anyone's
-- (the pre-hijacking hole), nobody ever signed in to them and their keys' secrets were never shown. They go,
-- with their confirmation links (a link mailed before this change then answers "expired or already used",
-- signing up again mails a new one). A merchant that also has a confirmed user keeps everything but the
-- unconfirmed user.
DELETE FROM "merchants" m
 WHERE EXISTS (SELECT 1 FROM "users" u WHERE u."merchant_id" = m."id" AND u."email_confirmed_at" IS NULL)
   AND NOT EXISTS (SELECT 1 FROM "users" u WHERE u."merchant_id" = m."id" AND u."email_confirmed_at" IS NOT NULL);
DELETE FROM "users" WHERE "email_confirmed_at" IS NULL;
DELETE FROM "email_link_tokens" WHERE "purpose" = 'confirm_email';
