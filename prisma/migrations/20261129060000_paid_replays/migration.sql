-- Issue 32: a paid request that survives a lost answer. A hosted paid resource keeps the answer it gave to each
-- payment for PAID_REPLAY_WINDOW_SECONDS (the body sealed with SECRETS_ENCRYPTION_KEY), keyed by the exact
-- credential, so the same payment sent again gets the same answer and never a second charge or forward. The one
-- answer in the making is leased (forward_token, forward_until) so that concurrent replays wait for it.
-- A resource created with replayable false keeps no body (a replay is told so).
-- x402 authorizations record the hash of the exact payload they were settled with (a replay must match it)
-- and the client's payment-identifier (unique per merchant and mode). MPP challenges record the credential's hash.
CREATE TABLE "paid_answers" (
  "payment_intent_id" TEXT NOT NULL,
  "paid_resource_id" TEXT NOT NULL,
  "credential_hash" TEXT NOT NULL,
  "status" INTEGER,
  "content_type" TEXT,
  "headers" JSONB,
  "body_sealed" BYTEA,
  "error" JSONB,
  "not_stored" BOOLEAN NOT NULL DEFAULT false,
  "answered_at" TIMESTAMPTZ(3),
  "forward_token" TEXT,
  "forward_until" TIMESTAMPTZ(3),
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "paid_answers_pkey" PRIMARY KEY ("payment_intent_id")
);
CREATE UNIQUE INDEX "paid_answers_paid_resource_id_credential_hash_key" ON "paid_answers" ("paid_resource_id", "credential_hash");
CREATE INDEX "paid_answers_expires_at_idx" ON "paid_answers" ("expires_at");
ALTER TABLE "paid_answers" ADD CONSTRAINT "paid_answers_payment_intent_id_fkey"
  FOREIGN KEY ("payment_intent_id") REFERENCES "payment_intents" ("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "paid_answers" ADD CONSTRAINT "paid_answers_paid_resource_id_fkey"
  FOREIGN KEY ("paid_resource_id") REFERENCES "paid_resources" ("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "paid_resources" ADD COLUMN "replayable" BOOLEAN NOT NULL DEFAULT true;

ALTER TABLE "x402_authorizations" ADD COLUMN "payload_hash" TEXT;
ALTER TABLE "x402_authorizations" ADD COLUMN "payment_identifier" TEXT;
CREATE UNIQUE INDEX "x402_authorizations_payment_identifier_key"
  ON "x402_authorizations" ("merchant_id", "livemode", "payment_identifier") WHERE "payment_identifier" IS NOT NULL;

ALTER TABLE "mpp_challenges" ADD COLUMN "credential_hash" TEXT;
