// The tick drops agent signature nonces whose window is over: a signature that old is refused as expired anyway.
import type { Db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { purgeBatch } from "../purge-batch";

/** Nonces one purge deletes at most (one row per signed agent request, so a backlog can be large). */
export const PURGE_BATCH = 5_000;

/** Deletes up to PURGE_BATCH expired nonces, the oldest first along the expires_at index; how many it deleted. */
export async function purgeAgentNonces(db: Db): Promise<number> {
  return purgeBatch(db, "agent_nonces", Prisma.sql`expires_at < now()`, "expires_at", PURGE_BATCH);
}
