-- Issue 33 item 4: proof of possession at agent key registration (docs/cards.md "Agent keys").
--
-- agent_key_challenges: the challenges POST /<network>/agents/challenge issues to an agent provider. Only the
-- challenge's SHA-256 is stored (challenge_hash, the primary key). A registration spends its challenge with one
-- DELETE ... RETURNING inside the registration's transaction, scoped to the provider, mode and network and
-- refusing an expired one: it can succeed once, in any process. Expired rows are dropped by the tick.
CREATE TABLE "agent_key_challenges" (
    "challenge_hash" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "merchant_id" TEXT NOT NULL,
    "livemode" BOOLEAN NOT NULL,
    "network" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_key_challenges_pkey" PRIMARY KEY ("challenge_hash")
);
CREATE INDEX "agent_key_challenges_expires_at_idx" ON "agent_key_challenges" ("expires_at");
