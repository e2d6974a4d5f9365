-- Human approval on x402 (docs/approvals.md "x402"): a request waits for an x402 authorization, not a shared
-- payment token, so the token column becomes optional. The authorization is named by its public key
-- (network, asset, payer, EIP-3009 nonce), never its signature, and one request per authorization waits at a time.
ALTER TABLE "approval_requests" ALTER COLUMN "shared_payment_token_id" DROP NOT NULL;
ALTER TABLE "approval_requests" ADD COLUMN "x402_authorization" TEXT;
ALTER TABLE "approval_requests" ADD COLUMN "paid_resource_id" TEXT;

CREATE INDEX "approval_requests_x402_authorization_idx" ON "approval_requests"("x402_authorization");

-- One pending request per authorization: the database decides between concurrent first payments.
CREATE UNIQUE INDEX "approval_requests_one_pending_per_x402_authorization" ON "approval_requests"("x402_authorization") WHERE "status" = 'pending';
