// Idempotency claims (docs/api-reference.md "Idempotency"): a row unique on (API key, mode, key) is claimed before the work runs,
// stored together with the work's own transaction, released when the work fails with a 5xx.
// The request pipeline folds the first claim attempt into its authentication statement (see
// lib/http/authenticate.ts); everything else here is plain statements on the pool or the work's transaction.
import { openSecret, sealSecret } from "../crypto/secret-box";
import {
  callerParameters,
  closeWith,
  sql,
  statement,
  type CallerQuery,
  type CallerStatement,
  type Db,
  type KnownCaller,
  type Sql,
  type Statement,
} from "../db";
import { isDatabaseUnavailable, onDatabaseAvailable } from "../db-availability";
import { env } from "../env";
import { ConflictError, InvariantViolation, ValidationError } from "../errors";
import { createId } from "../ids";
import { globalSingleton } from "../global-singleton";

export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

export interface ClaimScope {
  apiKeyId: string;
  livemode: boolean;
  key: string;
}

export type ClaimOutcome = { kind: "claimed"; claimId: string } | { kind: "replay"; status: number; bodyText: string };

/** A claim attempt's answer: the row it claimed, or the existing record that holds the key. */
export interface ClaimRow {
  id: string;
  claimed: boolean;
  fingerprint: string;
  status: string;
  response_status: number | null;
  response_body: string | null;
}

export function validateIdempotencyKey(key: string): void {
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new ValidationError("The Idempotency-Key header must be 1 to 255 printable ASCII characters.", [
      { path: "Idempotency-Key", message: "1 to 255 printable ASCII characters" },
    ]);
  }
}

/** SQL expressions (parameters or columns) a claim statement is built from. */
export interface ClaimExpressions {
  id: string;
  apiKeyId: string;
  livemode: string;
  key: string;
  fingerprint: string;
  lockSeconds: string;
  retentionHours: string;
}

/** SQL expressions of a response stored with the claim itself (a route's write planned with its answer). */
export interface StoredAnswerExpressions {
  status: string;
  body: string;
}

/**
 * The claim upsert as SQL text. It claims the key, or takes over a claim whose holder died (in flight past
 * its lock) or a record past retention; it returns the claimed row, and nothing when the key is held.
 * `from` optionally makes the values depend on other rows (a CTE of the statement it is part of). With `answer`
 * the record is written stored, with that response: the statement does the request's work too.
 */
export function claimText(e: ClaimExpressions, from = "", answer?: StoredAnswerExpressions): string {
  const [status, responseStatus, responseBody] = answer
    ? ["'stored'", answer.status, answer.body]
    : ["'in_flight'", "NULL::int", "NULL::text"];
  return `
    INSERT INTO idempotency_records AS r (id, api_key_id, livemode, key, fingerprint, status, response_status, response_body, locked_until, created_at)
    SELECT ${e.id}, ${e.apiKeyId}, ${e.livemode}, ${e.key}, ${e.fingerprint}, ${status}, ${responseStatus}, ${responseBody},
           now() + make_interval(secs => ${e.lockSeconds}::int), now() ${from}
    ON CONFLICT (api_key_id, livemode, key) DO UPDATE
      SET id = EXCLUDED.id, fingerprint = EXCLUDED.fingerprint, status = EXCLUDED.status, response_status = EXCLUDED.response_status,
          response_body = EXCLUDED.response_body, locked_until = EXCLUDED.locked_until, created_at = EXCLUDED.created_at
      WHERE ${takenOver(e.retentionHours)}
    RETURNING id, fingerprint, status, response_status, response_body`;
}

/** A record a claim takes over: its holder died (in flight past its lock), or it is past retention. */
function takenOver(retentionHours: string): string {
  return `((r.status = 'in_flight' AND r.locked_until < now()) OR r.created_at < now() - make_interval(hours => ${retentionHours}::int))`;
}

/**
 * The record holding the key, as the statement's snapshot sees it. A record a claim would take over holds nothing:
 * when the claim beside this read did not take it, another request's claim did after this snapshot was taken, and
 * answering from the old record would replay an expired answer. claim() then reads again, with a fresh snapshot.
 */
export function existingRecordText(
  apiKeyId: string,
  livemode: string,
  key: string,
  retentionHours: string,
  from = "",
  where = "true",
): string {
  return `
    SELECT r.id, r.fingerprint, r.status, r.response_status, r.response_body FROM idempotency_records r ${from}
     WHERE r.api_key_id = ${apiKeyId} AND r.livemode = ${livemode} AND r.key = ${key} AND NOT ${takenOver(retentionHours)} AND ${where}`;
}

/**
 * A CTE that makes the statement's own commit skip the wait for its WAL flush (`synchronous_commit` off for that one
 * transaction: `set_config(..., true)` ends with it, so the connection's next commit waits again). For a claim alone,
 * whose request's work commits later: a claim only matters once work was done under it, and every way a request
 * ends commits synchronously after the claim (the work's transaction with its stored response, the stored response
 * or error, the release), which flushes the WAL up to that commit, the claim's included. A database crash in between
 * can lose the claim, never a claim whose work or answer survived: the key is then free, as if never sent, and its
 * retry runs afresh (what a crash before the claim's commit already did). Saves one WAL flush per mutation
 * (docs/BENCHMARKS.md). Referenced in the claim's FROM, so it runs whenever the claim writes. Never in a statement that
 * is itself the work (a route's write beside its claim, claimText with an answer): that one's commit is the answer.
 */
export const UNFLUSHED_COMMIT_CTE = "unflushed AS (SELECT set_config('synchronous_commit', 'off', true) AS setting)";

const CLAIM = statement(
  "idempotency_claim",
  `WITH ${UNFLUSHED_COMMIT_CTE},
   c AS (${claimText({ id: "$1", apiKeyId: "$2", livemode: "$3", key: "$4", fingerprint: "$5", lockSeconds: "$6", retentionHours: "$7" }, "FROM unflushed")})
   SELECT *, true AS claimed FROM c
   UNION ALL
   SELECT *, false FROM (${existingRecordText("$2", "$3", "$4", "$7", "", "NOT EXISTS (SELECT 1 FROM c)")}) e`,
);
const READ_RECORD = statement("idempotency_read", `SELECT *, false AS claimed FROM (${existingRecordText("$1", "$2", "$3", "$4")}) e`);

/** Parameters of a claim statement, in the order of CLAIM's. */
export function claimValues(scope: ClaimScope, fingerprint: string): unknown[] {
  return [
    createId("idempotency"),
    scope.apiKeyId,
    scope.livemode,
    scope.key,
    fingerprint,
    env.IDEMPOTENCY_LOCK_SECONDS,
    env.IDEMPOTENCY_RETENTION_HOURS,
  ];
}

/**
 * Claims the key, or decides from the record holding it: replay, 400 (another request) or 409 (in flight). `db` is the
 * pool, never a transaction: the claim commits on its own, unflushed (UNFLUSHED_COMMIT_CTE would make a transaction's
 * whole commit unflushed).
 * `firstAttempt` is the answer of a claim already made as part of another statement (null: it returned
 * nothing, see below).
 */
export async function claim(db: Sql, scope: ClaimScope, fingerprint: string, firstAttempt?: ClaimRow | null): Promise<ClaimOutcome> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const answer =
      attempt === 0 && firstAttempt !== undefined
        ? (firstAttempt ?? undefined)
        : (await db.rows<ClaimRow>(CLAIM, claimValues(scope, fingerprint)))[0];
    // Empty when the conflicting row was committed after the statement's snapshot: look again.
    const row =
      answer ?? (await db.rows<ClaimRow>(READ_RECORD, [scope.apiKeyId, scope.livemode, scope.key, env.IDEMPOTENCY_RETENTION_HOURS]))[0];
    if (row) return outcomeOf(row, fingerprint);
    // released, or expired, between the two reads: try to claim again
  }
  throw keyInFlight();
}

/** `details.reason` of the two refusals of a held key (the error formatters of the protocol adapters branch on them). */
export const IDEMPOTENCY_IN_FLIGHT = "idempotency_in_flight";
export const IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused";

function keyInFlight(): ConflictError {
  return new ConflictError("A request with this Idempotency-Key is still being processed; retry shortly.", {
    reason: IDEMPOTENCY_IN_FLIGHT,
  });
}

function outcomeOf(row: ClaimRow, fingerprint: string): ClaimOutcome {
  if (row.claimed) return { kind: "claimed", claimId: row.id };
  // docs/api-reference.md "Idempotency": while the first request runs, the key answers 409 whatever the body.
  if (row.status === "in_flight") {
    throw keyInFlight();
  }
  if (row.fingerprint !== fingerprint) {
    throw new ValidationError(
      "This Idempotency-Key was already used with different request parameters; use a new key for a new request.",
      [{ path: "Idempotency-Key", message: "already used with a different request" }],
      { reason: IDEMPOTENCY_KEY_REUSED },
    );
  }
  return { kind: "replay", status: row.response_status ?? 200, bodyText: storedBodyText(row.response_body) };
}

/** JSON text is stored as is; a sealed body (see storeResponse) starts with the sealed-secret format. */
function storedBodyText(stored: string | null): string {
  if (stored === null) return "null";
  return stored.startsWith("v1:") ? openSecret(stored) : stored;
}

// Any `"secret": "..."` field in a response (an API key, a webhook signing secret) means the stored copy is
// sealed, even when a route forgot to say so: a replayable secret must never sit in plain text.
const CARRIES_SECRET = /"secret"\s*:\s*"/;

/** What is kept for replay: the JSON text, encrypted when it carries a secret. */
export function storedForm(bodyText: string, seal: boolean): string {
  return seal || CARRIES_SECRET.test(bodyText) ? sealSecret(bodyText) : bodyText;
}

const STORE = statement(
  "idempotency_store",
  "UPDATE idempotency_records SET status = 'stored', response_status = $2, response_body = $3 WHERE id = $1 AND status = 'in_flight'",
);

const STORE_CLOSING = statement("idempotency_store_closing", `${STORE.text} RETURNING 1`);
const CLAIM_LOST = "The idempotency claim was lost before the request finished.";

/**
 * Saves the response (its JSON text) for replay. Called inside the work's own transaction (Prisma's or a
 * raw one), so the work and its stored response commit together; if the claim was taken over meanwhile,
 * the whole transaction rolls back. In a transaction of this process the store is its closing write (lib/db.ts
 * closeWith): it runs last, with the writes still deferred, and on a plain pg transaction COMMIT rides with it.
 */
export async function storeResponse(tx: Db | Sql, claimId: string, status: number, bodyText: string, seal = false): Promise<void> {
  const stored = storedForm(bodyText, seal);
  const values = [claimId, status, stored];
  if (!("rows" in tx)) return closeWith(tx, { statement: STORE_CLOSING, values }, CLAIM_LOST);
  const updated = await tx.count(STORE, values);
  if (updated !== 1) throw new InvariantViolation(CLAIM_LOST);
}

const writeWithStore = new Map<string, Statement>();

/**
 * A route's write (a caller statement, lib/db.ts) for a caller already known and its stored response in ONE
 * statement, atomic on its own. The division fails the statement when the claim was lost (no row updated), so the
 * write does not happen either.
 */
function writeAndStoreStatement(write: CallerStatement<unknown>): Statement {
  let composed = writeWithStore.get(write.name);
  if (!composed) {
    const p = (n: number) => `$${write.params + n}`;
    const store = `s AS (UPDATE idempotency_records SET status = 'stored', response_status = ${p(4)}, response_body = ${p(5)}
              WHERE id = ${p(6)} AND status = 'in_flight' RETURNING 1)`;
    const ctes = [callerParameters(write.params), write.ctes, store].filter(Boolean).join(",\n");
    composed = statement(`${write.name}+store`, `WITH ${ctes}\nSELECT 1 / count(*)::int AS stored FROM s`);
    writeWithStore.set(write.name, composed);
  }
  return composed;
}

const DIVISION_BY_ZERO = "22012";

/** Runs a route's write for its caller and saves the response for replay, in one statement (see writeAndStoreStatement). */
export async function writeAndStoreResponse(
  db: Sql,
  write: CallerQuery<unknown>,
  caller: KnownCaller,
  claimId: string,
  status: number,
  stored: string,
): Promise<void> {
  const values = [...write.values, caller.apiKeyId, caller.merchantId, caller.livemode, status, stored, claimId];
  try {
    await db.rows(writeAndStoreStatement(write.statement), values);
  } catch (err) {
    if ((err as { code?: string }).code === DIVISION_BY_ZERO)
      throw new InvariantViolation("The idempotency claim was lost before the request finished.");
    throw err;
  }
}

const RELEASE = statement("idempotency_release", "DELETE FROM idempotency_records WHERE id = $1 AND status = 'in_flight'");

/**
 * After a request failed: a 4xx is its final answer and is stored for replay; a 5xx releases the key for a
 * fresh retry. Never throws. A release the database could not take (an outage: the request failed for that very
 * reason) is made once it is available again; a claim left behind otherwise expires after IDEMPOTENCY_LOCK_SECONDS.
 */
export async function settleFailedClaim(claimId: string, status: number, body: unknown): Promise<void> {
  try {
    if (status >= 500) await releaseClaim(claimId);
    else await storeResponse(sql(), claimId, status, JSON.stringify(body));
  } catch (err) {
    if (status >= 500 && isDatabaseUnavailable(err)) return releaseWhenAvailable(claimId);
    console.error("could not settle an idempotency claim:", err instanceof Error ? err.message : err);
  }
}

// Claims to release once the database is back, per process (a process that dies leaves them to their lock).
// Releasing later is safe: RELEASE deletes only a claim still in flight, and a request whose work committed
// stored its response in the same transaction.
function releaseWhenAvailable(claimId: string): void {
  const unreleased = globalSingleton("idempotency.unreleased", () => {
    const claims = new Set<string>();
    onDatabaseAvailable(() => {
      for (const id of claims) {
        claims.delete(id);
        void settleFailedClaim(id, 503, null);
      }
    });
    return claims;
  });
  unreleased.add(claimId);
}

/** Frees the key after a 5xx or crash, so a retry is a fresh request. */
export async function releaseClaim(claimId: string): Promise<void> {
  await sql().count(RELEASE, [claimId]);
}

/** Rows one purge deletes at most. */
const PURGE_BATCH = 5_000;

/** Deletes records past retention and claims long past their lock (the tick calls this). */
export async function purgeExpiredRecords(db: Db): Promise<number> {
  // Bounded per tick (the oldest first, along the created_at index): a backlog is worked off over a few ticks
  // instead of one long delete.
  return db.$executeRaw`
    DELETE FROM idempotency_records WHERE id IN (
      SELECT id FROM idempotency_records
       WHERE created_at < now() - make_interval(hours => ${env.IDEMPOTENCY_RETENTION_HOURS}::int)
       ORDER BY created_at LIMIT ${PURGE_BATCH})`;
}
