-- CreateTable
CREATE TABLE "inbound_wallet_events" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payment_intent_id" TEXT,
    "refund_id" TEXT,
    "rejection" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbound_wallet_events_pkey" PRIMARY KEY ("id")
);

