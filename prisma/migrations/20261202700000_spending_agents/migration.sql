-- Spending agents and their policies (docs/spending-policies.md): an agent of a payer (sag_), named by the credentials
-- the payer mints (shared payment tokens, Mastercard agentic tokens) and by wallet addresses (x402 payers), its
-- policy is checked in the transaction of the capture and its budgets count through spend_counters.

CREATE TABLE "spending_agents" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "policy" JSONB,
    -- As given (as the agent shows them), spending_agent_wallets below is the lookup that decides who has an address.
    "wallet_addresses" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spending_agents_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "spending_agents_merchant_id_livemode_created_at_id_idx" ON "spending_agents"("merchant_id", "livemode", "created_at" DESC, "id" DESC);

-- A wallet address (lowercase 0x...) counts against one spending agent per mode: the primary key decides who has it.
CREATE TABLE "spending_agent_wallets" (
    "livemode" BOOLEAN NOT NULL,
    "address" TEXT NOT NULL,
    "spending_agent_id" TEXT NOT NULL,

    CONSTRAINT "spending_agent_wallets_pkey" PRIMARY KEY ("livemode", "address")
);
CREATE INDEX "spending_agent_wallets_spending_agent_id_idx" ON "spending_agent_wallets"("spending_agent_id");
ALTER TABLE "spending_agent_wallets" ADD CONSTRAINT "spending_agent_wallets_spending_agent_id_fkey" FOREIGN KEY ("spending_agent_id") REFERENCES "spending_agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The default policy of a payer: applies to its spending agents that have none of their own.
CREATE TABLE "spending_policy_defaults" (
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "policy" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spending_policy_defaults_pkey" PRIMARY KEY ("merchant_id", "livemode")
);

ALTER TABLE "shared_payment_tokens" ADD COLUMN "spending_agent_id" TEXT;
ALTER TABLE "agentic_tokens" ADD COLUMN "spending_agent_id" TEXT;
