// The tick drops agent signature nonces whose window is over: a signature that old is refused as expired anyway.
import type { Db } from "../db";

/** Nonces one purge deletes at most (one row per signed agent request, so a backlog can be large). */
export const PURGE_BATCH = 5_000;

/**
 * Deletes up to PURGE_BATCH expired nonces, the oldest first along the expires_at index; how many it
 * deleted. Bounded per tick, so a backlog drains over a few ticks instead of in one long delete. The batch's
 * rows are deleted by their address (`ctid = ANY(ARRAY(...))`, a TID scan, as purgeIdleBuckets does):
 * `key IN (subselect)` is planned, for a batch this size, as a hash join over a scan of the whole table.
 */
export async function purgeAgentNonces(db: Db): Promise<number> {
  return db.$executeRaw`
    DELETE FROM agent_nonces WHERE ctid = ANY(ARRAY(
      SELECT ctid FROM agent_nonces WHERE expires_at < now() ORDER BY expires_at LIMIT ${PURGE_BATCH}))`;
}
