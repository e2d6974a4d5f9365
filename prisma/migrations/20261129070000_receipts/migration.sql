-- Issue 32: receipts anyone can verify (docs/receipts.md).
--
-- service_signing_keys: the service's own ES256 keys, which sign receipts (and x402 offer-receipts). The private JWK
-- is sealed like webhook secrets (lib/crypto/secret-box.ts) and dropped when the key retires, since a retired key
-- never signs again. One active key (partial unique index): the first is made on demand by whichever process needs
-- it first (INSERT ... ON CONFLICT DO NOTHING, then read), and a rotation (npm run receipts:rotate-key) retires it and
-- inserts the next under an advisory lock. A retired public key stays published in /.well-known/jwks.json for
-- RECEIPT_KEY_RETENTION_DAYS, so that the receipts it signed still verify.
CREATE TABLE "service_signing_keys" (
    "kid" TEXT NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "private_jwk_ciphertext" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),

    CONSTRAINT "service_signing_keys_pkey" PRIMARY KEY ("kid"),
    CONSTRAINT "service_signing_keys_active_can_sign" CHECK (NOT "active" OR "private_jwk_ciphertext" IS NOT NULL),
    CONSTRAINT "service_signing_keys_retired_when" CHECK ("active" = ("retired_at" IS NULL))
);
CREATE UNIQUE INDEX "service_signing_keys_one_active" ON "service_signing_keys" ((true)) WHERE "active";

-- receipts: one per captured PaymentIntent, the compact JWS as first signed. Its first request signs it and inserts
-- it ON CONFLICT DO NOTHING, then every request (that one included) answers the stored row, so concurrent first
-- requests in any number of processes still answer one and the same JWS.
CREATE TABLE "receipts" (
    "payment_intent_id" TEXT NOT NULL,
    "kid" TEXT NOT NULL,
    "jws" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "receipts_pkey" PRIMARY KEY ("payment_intent_id")
);
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_payment_intent_id_fkey" FOREIGN KEY ("payment_intent_id") REFERENCES "payment_intents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_kid_fkey" FOREIGN KEY ("kid") REFERENCES "service_signing_keys"("kid") ON DELETE RESTRICT ON UPDATE CASCADE;
