// The open streams' slots (GET /v1/events/stream): at most EVENT_STREAM_MAX_PER_KEY per API key and
// EVENT_STREAM_MAX_PER_MERCHANT per merchant (both modes), however many processes serve them. Each open stream
// holds a row of event_stream_leases; the database decides: a claim takes the merchant's advisory lock, so
// that claims of one merchant run one after another, and then inserts only while both counts are under
// their caps (a fresh snapshot after the lock sees every claim committed before). A process renews its
// rows while their streams are open and deletes each on close; a crashed process's rows expire after
// EVENT_STREAM_LEASE_SECONDS and stop counting.
import { DeferredTransaction, getDb, sql, statement, type Db } from "../db";
import { env } from "../env";
import { DomainError } from "../errors";
import { createId } from "../ids";
import type { Caller } from "../scope";
import { Prisma } from "../generated/prisma/client";
import { purgeBatch } from "../purge-batch";

const LOCK = statement("stream_lease_lock", `SELECT pg_advisory_xact_lock(hashtextextended('aps.event-stream:' || $1, 0))`);
const CLAIM = statement(
  "stream_lease_claim",
  `WITH live AS (
     SELECT count(*) FILTER (WHERE api_key_id = $2)::int AS per_key, count(*)::int AS per_merchant
       FROM event_stream_leases WHERE merchant_id = $1 AND expires_at > now()
   ), purged AS (
     DELETE FROM event_stream_leases WHERE merchant_id = $1 AND expires_at <= now()
   ), claimed AS (
     INSERT INTO event_stream_leases (id, merchant_id, api_key_id, expires_at)
     SELECT $3, $1, $2, now() + make_interval(secs => $6) FROM live WHERE per_key < $4 AND per_merchant < $5
     RETURNING id
   )
   SELECT EXISTS (SELECT 1 FROM claimed) AS claimed, per_key, per_merchant FROM live`,
);
const RENEW = statement(
  "stream_lease_renew",
  `UPDATE event_stream_leases SET expires_at = now() + make_interval(secs => $2) WHERE id = ANY($1::text[]) AND expires_at > now() RETURNING id`,
);
const RELEASE = statement("stream_lease_release", `DELETE FROM event_stream_leases WHERE id = $1`);
/** Expired leases one purge deletes at most. */
export const PURGE_BATCH = 5_000;

/** 429 RATE_LIMITED, `details.reason: "too_many_streams"`: the key's or the merchant's streams are all open. */
export class TooManyStreamsError extends DomainError {
  constructor(
    scope: "api_key" | "merchant",
    limit: number,
    readonly retryAfterSeconds: number,
    streams = "open event streams",
  ) {
    super(
      "RATE_LIMITED",
      scope === "api_key"
        ? `This API key already has the maximum of ${limit} ${streams}; close one first.`
        : `This account already has the maximum of ${limit} ${streams} (all keys, both modes); close one first.`,
      { reason: "too_many_streams", scope, limit, retryAfterSeconds },
    );
  }
}

/** What a claim names in its refusal, and how long its lease lasts unless renewed (the event streams' hub renews theirs). */
export interface LeaseKind {
  streams: string;
  seconds: number;
}

/** Takes a slot for a new stream of this key, or throws TooManyStreamsError. Returns the lease's id. */
export async function claimStreamLease(
  caller: Caller,
  kind: LeaseKind = { streams: "open event streams", seconds: env.EVENT_STREAM_LEASE_SECONDS },
): Promise<string> {
  const id = createId("eventStreamLease");
  const tx = new DeferredTransaction();
  try {
    await tx.rows(LOCK, [caller.merchantId]);
    const [row] = await tx.rows<{ claimed: boolean; per_key: number; per_merchant: number }>(CLAIM, [
      caller.merchantId,
      caller.apiKeyId,
      id,
      env.EVENT_STREAM_MAX_PER_KEY,
      env.EVENT_STREAM_MAX_PER_MERCHANT,
      kind.seconds,
    ]);
    await tx.commit();
    if (row.claimed) return id;
    const retryAfter = Math.max(1, Math.round(env.EVENT_STREAM_LEASE_SECONDS / 3));
    if (row.per_key >= env.EVENT_STREAM_MAX_PER_KEY)
      throw new TooManyStreamsError("api_key", env.EVENT_STREAM_MAX_PER_KEY, retryAfter, kind.streams);
    throw new TooManyStreamsError("merchant", env.EVENT_STREAM_MAX_PER_MERCHANT, retryAfter, kind.streams);
  } finally {
    await tx.rollback();
  }
}

/** Extends the leases of this process's open streams; returns those still held (an expired one was lost). */
export async function renewStreamLeases(ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await sql().rows<{ id: string }>(RENEW, [ids, env.EVENT_STREAM_LEASE_SECONDS]);
  return new Set(rows.map((r) => r.id));
}

export async function releaseStreamLease(id: string): Promise<void> {
  await sql().count(RELEASE, [id]);
}

/**
 * The cron tick: rows of streams whose process died (claims purge their own merchant's too), at most
 * PURGE_BATCH a call, the oldest first along the expires_at index: a backlog drains over a few ticks. The
 * DELETE re-checks the expiry of the row it deletes, so a lease renewed meanwhile stays. Returns how many it
 * deleted.
 */
export function purgeExpiredStreamLeases(db: Db = getDb()): Promise<number> {
  return purgeBatch(db, "event_stream_leases", Prisma.sql`expires_at <= now()`, "expires_at", PURGE_BATCH);
}

/** How often a process renews its leases: three times per lease, so one missed renewal loses nothing. */
export function leaseRenewalMs(): number {
  return (env.EVENT_STREAM_LEASE_SECONDS * 1000) / 3;
}
