-- Approval requests (docs/approvals.md): a charge above a spending policy's approval threshold waits for the payer.
CREATE TABLE "approval_requests" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "spending_agent_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "payee_merchant_id" TEXT NOT NULL,
    "checkout_id" TEXT NOT NULL,
    "shared_payment_token_id" TEXT NOT NULL,
    "protocol" TEXT NOT NULL,
    "acp_checkout_session_id" TEXT,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "approval_threshold" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "decided_at" TIMESTAMPTZ(3),
    "decided_via" TEXT,
    "payment_intent_id" TEXT,
    "link_token_hash" TEXT,
    "link_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "approval_requests_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "approval_requests_status_check" CHECK ("status" IN ('pending', 'approved', 'declined', 'expired'))
);

CREATE UNIQUE INDEX "approval_requests_checkout_id_key" ON "approval_requests"("checkout_id");
CREATE UNIQUE INDEX "approval_requests_link_token_hash_key" ON "approval_requests"("link_token_hash");
CREATE INDEX "approval_requests_merchant_id_livemode_created_at_id_idx" ON "approval_requests"("merchant_id", "livemode", "created_at" DESC, "id" DESC);
CREATE INDEX "approval_requests_status_expires_at_idx" ON "approval_requests"("status", "expires_at");
CREATE INDEX "approval_requests_acp_checkout_session_id_idx" ON "approval_requests"("acp_checkout_session_id");

-- One pending request per shared payment token (the database decides: a second redemption while one waits is refused).
CREATE UNIQUE INDEX "approval_requests_one_pending_per_token" ON "approval_requests"("shared_payment_token_id") WHERE "status" = 'pending';
