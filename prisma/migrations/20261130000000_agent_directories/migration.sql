-- Issue 33: verified agents of foreign operators (docs/cards.md "Foreign agent operators").
--
-- agent_directories: the key directories of foreign agent operators (a Signature-Agent naming an origin listed in
-- AGENT_DIRECTORIES_TRUSTED), shared by every process: the keys whose directory signature verified (public JWKs with
-- their thumbprint and algorithm), or the failure of the last fetch (a negative cache entry, keys empty). fresh_until
-- is the answer Cache-Control max-age (or the failure back-off), and refetch_after, the earliest time an unknown keyid
-- may fetch the directory again. Bounded: the rows fetched longest ago are dropped past a fixed count.
CREATE TABLE "agent_directories" (
    "origin" TEXT NOT NULL,
    "keys" JSONB NOT NULL DEFAULT '[]',
    "failure" TEXT,
    "fetched_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "fresh_until" TIMESTAMPTZ(3) NOT NULL,
    "refetch_after" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "agent_directories_pkey" PRIMARY KEY ("origin")
);
CREATE INDEX "agent_directories_fetched_at_idx" ON "agent_directories" ("fetched_at");

-- agentic_tokens: a token is bound either to an agent key registered here or to a foreign agent operator origin.
ALTER TABLE "agentic_tokens" ALTER COLUMN "agent_key_id" DROP NOT NULL;
ALTER TABLE "agentic_tokens" ADD COLUMN "agent_operator" TEXT;
ALTER TABLE "agentic_tokens" ADD CONSTRAINT "agentic_tokens_one_agent" CHECK (("agent_key_id" IS NULL) <> ("agent_operator" IS NULL));
