// The tick's clean-up of OAuth leftovers: codes, access tokens and refresh tokens more than a day past
// their expiry. A rotated refresh token is kept until then (its reuse must still revoke the family);
// grants, revoked or not, stay as the record of who was allowed what. And registered clients nobody
// authorized within OAUTH_UNUSED_CLIENT_HOURS: registration is open to anyone, so the table must not keep
// whatever a script registers (a client that ever got a code stays, with its grants).
import { sql, statement, type Sql } from "../db";
import { env } from "../env";

/** Rows of each of the three tables one purge deletes at most (so at most three times this in all). */
export const PURGE_BATCH = 5_000;

// Each table the oldest first along its expires_at index, at most $1 rows: a backlog drains over a few ticks.
const PURGE = statement(
  "oauth_purge",
  `WITH c AS (DELETE FROM oauth_authorization_codes WHERE ctid = ANY(ARRAY(
                SELECT ctid FROM oauth_authorization_codes WHERE expires_at < now() - interval '1 day'
                 ORDER BY expires_at LIMIT $1)) RETURNING 1),
        a AS (DELETE FROM oauth_access_tokens WHERE ctid = ANY(ARRAY(
                SELECT ctid FROM oauth_access_tokens WHERE expires_at < now() - interval '1 day'
                 ORDER BY expires_at LIMIT $1)) RETURNING 1),
        r AS (DELETE FROM oauth_refresh_tokens WHERE ctid = ANY(ARRAY(
                SELECT ctid FROM oauth_refresh_tokens WHERE expires_at < now() - interval '1 day'
                 ORDER BY expires_at LIMIT $1)) RETURNING 1)
   SELECT (SELECT count(*) FROM c) + (SELECT count(*) FROM a) + (SELECT count(*) FROM r) AS n`,
);

/** Clients deleted per tick at most (the rest go on the next ticks). */
const UNUSED_CLIENTS_PER_TICK = 1000;

// A consent stamps its client (issue-code.ts) in the row itself: a client being stamped right now is skipped
// (SKIP LOCKED), and the DELETE re-checks the stamp on the row it deletes, so a consent and the purge never
// both win; the consent that loses finds the client gone (invalid_client).
const PURGE_UNUSED_CLIENTS = statement(
  "oauth_purge_unused_clients",
  `DELETE FROM oauth_clients
    WHERE id IN (SELECT id FROM oauth_clients
                  WHERE last_authorized_at IS NULL AND created_at < now() - make_interval(hours => $1::int)
                  ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
      AND last_authorized_at IS NULL`,
);

/**
 * Deletes codes and tokens more than a day past their expiry, at most PURGE_BATCH of each table a call (a
 * backlog drains over a few ticks); how many it deleted in all.
 */
export async function purgeOAuthLeftovers(db: Sql = sql()): Promise<number> {
  const [row] = await db.rows<{ n: string }>(PURGE, [PURGE_BATCH]);
  return Number(row?.n ?? 0);
}

export function purgeUnusedOAuthClients(): Promise<number> {
  return sql().count(PURGE_UNUSED_CLIENTS, [env.OAUTH_UNUSED_CLIENT_HOURS, UNUSED_CLIENTS_PER_TICK]);
}
