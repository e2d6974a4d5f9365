-- A2A merchant agents and AP2 mandates (docs/a2a.md).
--
-- a2a_tasks: every A2A task of a merchant agent, in A2A v1.0 ProtoJSON, so any server process answers GetTask and
-- a restart loses nothing. `owner` is the buyer (the merchant id of the API key that called): what the
-- agent asked for is kept in the task's own metadata, which only the agent writes (settlement compares with it,
-- never with what the buyer sends back). A terminal task is never overwritten (the store's upsert is guarded by the state), and
-- payment_intent_id is set once (unique): one payment per task, decided by the database.
CREATE TABLE "a2a_tasks" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "owner" TEXT NOT NULL,
    "context_id" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "task" JSONB NOT NULL,
    "payment_intent_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "a2a_tasks_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "a2a_tasks_payment_intent_id_key" ON "a2a_tasks"("payment_intent_id");
CREATE INDEX "a2a_tasks_merchant_id_livemode_owner_updated_at_idx" ON "a2a_tasks"("merchant_id", "livemode", "owner", "updated_at" DESC);
ALTER TABLE "a2a_tasks" ADD CONSTRAINT "a2a_tasks_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ap2_signing_keys: the merchant's CartMandate signing keys (ES256). The private JWK is sealed like webhook secrets
-- (lib/crypto/secret-box.ts). One active key per merchant (partial unique index): rotation retires it, and a
-- retired key stays published in the JWKS (and accepted) for a day so outstanding mandates still verify.
CREATE TABLE "ap2_signing_keys" (
    "kid" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "private_jwk_ciphertext" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),

    CONSTRAINT "ap2_signing_keys_pkey" PRIMARY KEY ("kid")
);
CREATE UNIQUE INDEX "ap2_signing_keys_one_active" ON "ap2_signing_keys"("merchant_id") WHERE "active";
CREATE INDEX "ap2_signing_keys_merchant_id_created_at_idx" ON "ap2_signing_keys"("merchant_id", "created_at" DESC);
ALTER TABLE "ap2_signing_keys" ADD CONSTRAINT "ap2_signing_keys_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ap2_mandates: one row per CartMandate the merchant signed (its JWT id is the key). Paying it sets used_at in an
-- atomic UPDATE ... WHERE used_at IS NULL, in the transaction that redeems the shared payment token: a reused jti
-- (or a second PaymentMandate) finds it used and is refused with nothing charged. The token and the PaymentMandate
-- id are unique too. The mandates are kept with the order for audit (the order's dashboard page shows them).
CREATE TABLE "ap2_mandates" (
    "jti" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "task_id" TEXT NOT NULL,
    "cart_id" TEXT NOT NULL,
    "cart_hash" TEXT NOT NULL,
    "cart_mandate" JSONB NOT NULL,
    "items" JSONB NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "payment_mandate" JSONB,
    "payment_mandate_id" TEXT,
    "token_id" TEXT,
    "payment_intent_id" TEXT,
    "order_id" TEXT,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ap2_mandates_pkey" PRIMARY KEY ("jti")
);
CREATE UNIQUE INDEX "ap2_mandates_merchant_id_payment_mandate_id_key" ON "ap2_mandates"("merchant_id", "payment_mandate_id");
CREATE UNIQUE INDEX "ap2_mandates_token_id_key" ON "ap2_mandates"("token_id");
CREATE UNIQUE INDEX "ap2_mandates_order_id_key" ON "ap2_mandates"("order_id");
CREATE INDEX "ap2_mandates_task_id_idx" ON "ap2_mandates"("task_id");
ALTER TABLE "ap2_mandates" ADD CONSTRAINT "ap2_mandates_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
