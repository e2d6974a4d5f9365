-- Sign-up confirms the address by an emailed link, and a forgotten password is reset by one
-- (docs/dashboard.md, "Email links"). Users that exist already are confirmed (they signed up before
-- confirmation existed, or were made by the operator CLI).
ALTER TABLE "users" ADD COLUMN "email_confirmed_at" TIMESTAMPTZ(3);
UPDATE "users" SET "email_confirmed_at" = "created_at";

-- Mails the service would send: no external mail service, the dev mail viewer (/dev/mail) reads them.
CREATE TABLE "email_outbox" (
    "id" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text_body" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "email_outbox_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "email_outbox_to_created_at_idx" ON "email_outbox"("to", "created_at");
CREATE INDEX "email_outbox_created_at_idx" ON "email_outbox"("created_at");

-- A link's token, stored only as its SHA-256, used once (used_at set by one atomic UPDATE) before expires_at.
CREATE TABLE "email_link_tokens" (
    "token_hash" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    CONSTRAINT "email_link_tokens_pkey" PRIMARY KEY ("token_hash"),
    CONSTRAINT "email_link_tokens_purpose_check" CHECK ("purpose" IN ('confirm_email', 'reset_password'))
);
CREATE INDEX "email_link_tokens_user_id_idx" ON "email_link_tokens"("user_id");
CREATE INDEX "email_link_tokens_expires_at_idx" ON "email_link_tokens"("expires_at");
ALTER TABLE "email_link_tokens" ADD CONSTRAINT "email_link_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
