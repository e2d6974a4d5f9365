-- Event streams (GET /v1/events/stream, issue 29): a commit-order cursor on events, and the open streams'
-- leases that cap them across processes.

-- The inserting transaction's id (64-bit, never wraps). The stream sends an event once every transaction
-- with a lower id has ended, in (xid, seq) order: an event that becomes visible later always sorts after
-- every event sent before it, so Last-Event-ID resumes exactly (docs/webhooks.md). Rows from before this
-- migration get 0 (they are all older than any new one), new rows their transaction's id.
ALTER TABLE "events" ADD COLUMN "xid" xid8 NOT NULL DEFAULT '0';
ALTER TABLE "events" ALTER COLUMN "xid" SET DEFAULT pg_current_xact_id();
CREATE INDEX "events_merchant_id_livemode_xid_seq_idx" ON "events" ("merchant_id", "livemode", "xid", "seq");
DROP INDEX "events_merchant_id_livemode_seq_idx";

-- One row per open stream, renewed by its process while open and deleted when it closes, a crashed
-- process's rows expire by themselves. UNLOGGED: after a database crash no stream is open anyway.
CREATE UNLOGGED TABLE "event_stream_leases" (
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "event_stream_leases_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "event_stream_leases_merchant_id_idx" ON "event_stream_leases" ("merchant_id");
CREATE INDEX "event_stream_leases_expires_at_idx" ON "event_stream_leases" ("expires_at");
