-- /mcp tool calls running per principal (lib/mcp/call-slots.ts): one row per API key or OAuth grant, holding
-- its leases as { "<lease id>": <expiry, epoch seconds> }. A call's slot is taken by one upsert that counts the
-- live leases under the row's lock and adds one only below the cap, so the cap holds across processes. Each
-- take and release rewrites the row: UNLOGGED (no WAL: after a crash the table is empty, and no call runs then)
-- with half of each page free so that the updates are HOT, as for rate_limit_buckets. A lease a dead process
-- never released lapses at its expiry.
CREATE UNLOGGED TABLE "mcp_call_slots" (
    "principal" TEXT NOT NULL,
    "leases" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "mcp_call_slots_pkey" PRIMARY KEY ("principal")
) WITH (fillfactor = 50);
