-- Issue 29 items 4 and 5 (docs/x402.md, "Forwarded requests"): a paid resource's `method` (the one HTTP method a
-- payer may use: the forward uses it too) and its forwarding secret, sealed (lib/crypto/secret-box.ts), with the
-- previous one kept for an overlap after a rotation. Existing resources get no secret here (SQL cannot seal):
-- their forwards stay unsigned until the merchant rotates (POST /v1/paid_resources/:id/rotate-forwarding-secret).
ALTER TABLE "paid_resources"
    ADD COLUMN "method" TEXT NOT NULL DEFAULT 'GET',
    ADD COLUMN "forwarding_secret_ciphertext" TEXT,
    ADD COLUMN "previous_forwarding_secret_ciphertext" TEXT,
    ADD COLUMN "previous_forwarding_secret_expires_at" TIMESTAMPTZ(3),
    ADD CONSTRAINT "paid_resources_method_check" CHECK ("method" IN ('GET', 'POST', 'PUT', 'PATCH', 'DELETE'));
