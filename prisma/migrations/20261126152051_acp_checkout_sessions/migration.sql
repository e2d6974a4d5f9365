-- ACP checkout sessions (docs/acp.md): the agent platform's cart under /acp/checkout_sessions, priced from the
-- merchant's product catalog when read. `items` is the cart as the agent asked for it ([{ id, quantity }]);
-- completing it redeems a shared payment token into an ordinary checkout of the merchant (source "acp"),
-- whose order the session then names (order_id, unique: one order per session).
CREATE TABLE "acp_checkout_sessions" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "status" TEXT NOT NULL,
    "items" JSONB NOT NULL DEFAULT '[]',
    "buyer" JSONB,
    "fulfillment_details" JSONB,
    "selected_fulfillment_options" JSONB NOT NULL DEFAULT '[]',
    "payment_intent_id" TEXT,
    "order_id" TEXT,
    "completed_at" TIMESTAMPTZ(3),
    "canceled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "acp_checkout_sessions_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "acp_checkout_sessions_order_id_key" ON "acp_checkout_sessions"("order_id");
CREATE INDEX "acp_checkout_sessions_merchant_id_livemode_created_at_idx" ON "acp_checkout_sessions"("merchant_id", "livemode", "created_at" DESC);

ALTER TABLE "acp_checkout_sessions" ADD CONSTRAINT "acp_checkout_sessions_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A token minted by ACP's delegate_payment is usable only for the checkout session its allowance names.
ALTER TABLE "shared_payment_tokens" ADD COLUMN "acp_checkout_session_id" TEXT;

-- A webhook endpoint's format: "service" (the service's own events) or "acp" (ACP order webhooks to an agent
-- platform: order_create / order_update bodies signed in a Merchant-Signature header).
ALTER TABLE "webhook_endpoints" ADD COLUMN "format" TEXT NOT NULL DEFAULT 'service';
