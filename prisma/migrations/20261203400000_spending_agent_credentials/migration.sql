-- Spending agents, second round (docs/spending-policies.md): a deleted agent is kept (deleted_at) so that the
-- credentials still naming it are refused at the charge, never let through unchecked. Visa instructions, API keys
-- and card-network agent keys may name an agent. A wallet address is proved by an EIP-191 signature of a
-- challenge the service issued (one use, short-lived).

ALTER TABLE "spending_agents" ADD COLUMN "deleted_at" TIMESTAMPTZ(3);
ALTER TABLE "visa_instructions" ADD COLUMN "spending_agent_id" TEXT;
ALTER TABLE "api_keys" ADD COLUMN "spending_agent_id" TEXT;
ALTER TABLE "agent_keys" ADD COLUMN "spending_agent_id" TEXT;

CREATE TABLE "spending_agent_wallet_challenges" (
    "id" TEXT NOT NULL,
    "spending_agent_id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spending_agent_wallet_challenges_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "spending_agent_wallet_challenges_expires_at_idx" ON "spending_agent_wallet_challenges"("expires_at");
ALTER TABLE "spending_agent_wallet_challenges" ADD CONSTRAINT "spending_agent_wallet_challenges_spending_agent_id_fkey"
    FOREIGN KEY ("spending_agent_id") REFERENCES "spending_agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The payments a spending agent's credentials made (its dashboard page): written with the charge that passed its
-- policy, read newest first by the agent, never by scanning the payer's history.
CREATE TABLE "spending_agent_payments" (
    "payment_intent_id" TEXT NOT NULL,
    "spending_agent_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spending_agent_payments_pkey" PRIMARY KEY ("payment_intent_id")
);
CREATE INDEX "spending_agent_payments_spending_agent_id_created_at_idx" ON "spending_agent_payments"("spending_agent_id", "created_at" DESC, "payment_intent_id" DESC);

-- Its policy refusals: the payment.policy_refused event of each, by agent, newest first.
CREATE TABLE "spending_agent_refusals" (
    "event_id" TEXT NOT NULL,
    "spending_agent_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spending_agent_refusals_pkey" PRIMARY KEY ("event_id")
);
CREATE INDEX "spending_agent_refusals_spending_agent_id_created_at_idx" ON "spending_agent_refusals"("spending_agent_id", "created_at" DESC, "event_id" DESC);

-- The agent's approval requests on its page, newest first, by index.
CREATE INDEX "approval_requests_spending_agent_id_created_at_id_idx" ON "approval_requests"("spending_agent_id", "created_at" DESC, "id" DESC);
