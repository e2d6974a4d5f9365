-- ACP request signing (docs/acp.md "Request signing"): the agent platform's public keys a merchant registered.
-- Public JWKs only (Ed25519 or P-256). While a merchant and mode has an active key, every /acp request must carry
-- a valid Signature and a fresh Timestamp.
CREATE TABLE "acp_signing_keys" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "name" TEXT,
    "public_jwk" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "acp_signing_keys_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "acp_signing_keys_merchant_id_livemode_created_at_idx" ON "acp_signing_keys"("merchant_id", "livemode", "created_at" DESC);

ALTER TABLE "acp_signing_keys" ADD CONSTRAINT "acp_signing_keys_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ACP 3-D Secure (docs/acp.md "3-D Secure"): when a completion found that the token's card demands authentication,
-- the session shows authentication_required (with its authentication_metadata) from then on until it completes.
ALTER TABLE "acp_checkout_sessions" ADD COLUMN "authentication_required_at" TIMESTAMPTZ(3);
