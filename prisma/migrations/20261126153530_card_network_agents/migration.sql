-- Card-network agent payments (docs/cards.md): agent keys (agk_), the verifier's nonce store, Mastercard agentic
-- tokens (atk_) and their single-use codes, Visa purchase instructions (vi_) and credentials (vtok_), the
-- PaymentIntent's `agent` and the checkout's "requires a verified agent" option.
-- AlterTable
ALTER TABLE "checkouts" ADD COLUMN     "require_verified_agent" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "payment_intents" ADD COLUMN     "agent" JSONB;

-- CreateTable
CREATE TABLE "agent_keys" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "network" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "jwk" JSONB NOT NULL,
    "alg" TEXT NOT NULL,
    "keyid" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_nonces" (
    "network" TEXT NOT NULL,
    "keyid" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_nonces_pkey" PRIMARY KEY ("network","keyid","nonce")
);

-- CreateTable
CREATE TABLE "agentic_tokens" (
    "id" TEXT NOT NULL,
    "payer_merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "agent_key_id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "payment_method" TEXT NOT NULL,
    "token_number" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "max_amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "max_uses" INTEGER NOT NULL,
    "uses" INTEGER NOT NULL DEFAULT 0,
    "amount_used" INTEGER NOT NULL DEFAULT 0,
    "charge_attempts" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agentic_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agentic_token_codes" (
    "id" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "payment_intent_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agentic_token_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "visa_instructions" (
    "id" TEXT NOT NULL,
    "payer_merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "agent_key_id" TEXT NOT NULL,
    "payment_method" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "mandates" JSONB NOT NULL,
    "assurance_data" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "visa_instructions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "visa_credentials" (
    "id" TEXT NOT NULL,
    "instruction_id" TEXT NOT NULL,
    "payer_merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "charge_attempts" INTEGER NOT NULL DEFAULT 0,
    "payment_intent_id" TEXT,
    "confirmation" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "visa_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "agent_keys_merchant_id_livemode_network_created_at_id_idx" ON "agent_keys"("merchant_id", "livemode", "network", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "agent_keys_network_livemode_keyid_key" ON "agent_keys"("network", "livemode", "keyid");

-- CreateIndex
CREATE INDEX "agent_nonces_expires_at_idx" ON "agent_nonces"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "agentic_tokens_token_number_key" ON "agentic_tokens"("token_number");

-- CreateIndex
CREATE INDEX "agentic_tokens_payer_merchant_id_livemode_created_at_id_idx" ON "agentic_tokens"("payer_merchant_id", "livemode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "agentic_token_codes_token_id_code_hash_key" ON "agentic_token_codes"("token_id", "code_hash");

-- CreateIndex
CREATE INDEX "visa_instructions_payer_merchant_id_livemode_created_at_id_idx" ON "visa_instructions"("payer_merchant_id", "livemode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "visa_credentials_payment_intent_id_key" ON "visa_credentials"("payment_intent_id");

-- CreateIndex
CREATE INDEX "visa_credentials_instruction_id_idx" ON "visa_credentials"("instruction_id");

