// Proof of possession at agent key registration (docs/cards.md "Agent keys"): the agent provider asks for a
// challenge (POST /<network>/agents/challenge), then signs its registration request with the key it registers,
// RFC 9421 with the challenge as the signature's nonce. The challenge is shown once and stored only as its SHA-256;
// a registration spends it with one DELETE ... RETURNING in its own transaction (scoped to the provider, mode and
// network, refusing an expired one), which succeeds once in any process. Expired challenges are purged by the tick.
import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db";
import { env } from "../env";
import { createId } from "../ids";
import type { Scope } from "../scope";
import type { Network } from "./profiles";
import { Prisma } from "../generated/prisma/client";
import { purgeBatch } from "../purge-batch";

/** How long a challenge may be used. */
export const CHALLENGE_TTL_SECONDS = 300;
/** The tag a registration's signature carries. */
export const REGISTRATION_TAG = "agent-key-registration";
/** What a registration's signature covers. */
export const REGISTRATION_COMPONENTS = ["@method", "@authority", "@path"] as const;
/** Expired challenges one purge deletes at most. */
export const CHALLENGE_PURGE_BATCH = 5_000;

const hashOf = (challenge: string) => createHash("sha256").update(challenge, "utf8").digest("base64url");

/** A new challenge for the provider's next registration on this network; the challenge itself is shown once. */
export async function issueKeyChallenge(db: Db, owner: Scope, network: Network) {
  const id = createId("agentKeyChallenge");
  const challenge = randomBytes(32).toString("base64url");
  const createdAt = new Date();
  const expiresAt = new Date(createdAt.getTime() + CHALLENGE_TTL_SECONDS * 1000);
  await db.$executeRaw`
    INSERT INTO agent_key_challenges (challenge_hash, id, merchant_id, livemode, network, expires_at, created_at)
    VALUES (${hashOf(challenge)}, ${id}, ${owner.merchantId}, ${owner.livemode}, ${network}, ${expiresAt}, ${createdAt})`;
  return {
    id,
    object: "agent_key_challenge" as const,
    network,
    challenge,
    // How to use it: sign this request (the registration) with the key, the challenge as the nonce.
    signing: {
      method: "POST",
      url: `${env.BASE_URL}/${network}/agents`,
      tag: REGISTRATION_TAG,
      components: [...REGISTRATION_COMPONENTS],
      nonce: challenge,
    },
    expiresAt: expiresAt.toISOString(),
    livemode: owner.livemode,
    createdAt: createdAt.toISOString(),
  };
}

/** Spends the provider's unexpired challenge once; false when it is unknown, another's, used or expired. */
export async function spendKeyChallenge(db: Db, owner: Scope, network: Network, challenge: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    DELETE FROM agent_key_challenges
    WHERE challenge_hash = ${hashOf(challenge)} AND merchant_id = ${owner.merchantId} AND livemode = ${owner.livemode}
      AND network = ${network} AND expires_at > now()
    RETURNING id`;
  return rows.length === 1;
}

/** Deletes up to CHALLENGE_PURGE_BATCH expired challenges, the oldest first along the expires_at index. */
export async function purgeKeyChallenges(db: Db): Promise<number> {
  return purgeBatch(db, "agent_key_challenges", Prisma.sql`expires_at < now()`, "expires_at", CHALLENGE_PURGE_BATCH);
}
