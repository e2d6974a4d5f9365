// Bearer API key -> principal (merchant, key, mode), the principal's rate-limit token, the route's permission
// (a restricted key's grants, docs/restricted-keys.md) and, for a mutating request with an Idempotency-Key, the
// idempotency claim. With the Postgres buckets all four happen in ONE statement (the request's first round trip):
// the claim is made only when the token was granted AND the key allows the route, so a denied request never
// claims its Idempotency-Key (a retry of it is denied again, and the key stays free); a key that is not found
// takes the token from the client IP's bucket in that same statement. A route may hand this step its own
// statement instead of a claim (a caller statement, lib/db.ts: `api(operation, { statement }, handler)`): it runs
// inside the API-key statement on the same condition, so the whole request is ONE round trip (the paywall's verify
// and redemptions). A route's write (lib/http/route-write.ts) runs there too, beside a claim written already stored
// with the write's planned answer: a create is ONE round trip. With Redis: an indexed lookup by the key's hash (which
// brings the grants), the Redis take, the permission, then the claim or the route's statement on its own (two round
// trips; a write with a claim, three: the claim, then the write with its stored answer).
// Order of refusals either way: 401 (no such key, revoked, or past a roll's grace) -> 429 -> 403 permission_denied.
import { runAsCaller, sql, statement, type CallerStatement, type Statement } from "../db";
import { env } from "../env";
import { ForbiddenError, InvariantViolation, UnauthorizedError } from "../errors";
import { createId } from "../ids";
import { allows, PermissionDeniedError, type Permission } from "../merchants/permissions";
import {
  claim,
  claimText,
  existingRecordText,
  settleFailedClaim,
  writeAndStoreResponse,
  UNFLUSHED_COMMIT_CTE,
  type ClaimOutcome,
  type ClaimRow,
} from "../idempotency/claims";
import { hashSecret, looksLikeSecret } from "../merchants/api-key-secret";
import { bucketConfig, bucketsInPostgres } from "../rate-limit";
import { takeTokenText } from "../rate-limit/postgres-limiter";
import { describeBucket, refillPerMs } from "../rate-limit/token-bucket";
import type { Caller } from "../scope";
import type { ClaimRequest } from "./idempotency-step";
import type { Authenticate, Authenticated } from "./pipeline";
import { applyTakeResult, clientIpBucket, enforceRateLimit, limitByClientIp } from "./rate-limit-step";
import { answerIn, type PlannedAnswer, type RouteQuery } from "./route-write";

/** A usable key (not revoked, not past the grace period of a roll) as FIND_KEY reads it. */
interface KeyRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  /** A restricted key's grants; null for a secret key. */
  permissions: Record<string, string> | null;
}

/** What an API-key statement answers first: the key (key_* NULL when none was found) and the token taken. */
interface KeyVerdict {
  key_id: string | null;
  key_merchant_id: string;
  key_livemode: boolean;
  key_permissions: Record<string, string> | null;
  key_permitted: boolean;
  key_tokens: number;
  key_allowed: boolean;
  /** The client IP's bucket: a token is taken from it only when no key was found. */
  ip_tokens: number | null;
  ip_allowed: boolean | null;
}

interface ClaimColumns {
  claim_id: string | null;
  claimed: boolean;
  fingerprint: string | null;
  status: string | null;
  response_status: number | null;
  response_body: string | null;
}

const usableKey = (hash: string) => `secret_hash = ${hash} AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`;

const FIND_KEY = statement("auth_find_key", `SELECT id, merchant_id, livemode, permissions FROM api_keys WHERE ${usableKey("$1")}`);

/**
 * The CTEs every API-key statement starts with. Parameters, from $offset+1: the secret hash, the bucket's size, its
 * refill per ms, the route's permission (resource and level, "read" | "write"; a null resource: secret keys only)
 * and the client IP's bucket (keyValues). `k` is the key and whether it allows the route (a secret key, permissions
 * null, is allowed everything; write implies read), `t` the token taken from its bucket, `ip` the token taken
 * from the client IP's bucket when no key was found (a brake on guessing keys).
 */
function keyCtes(offset: number): string {
  const [hash, max, perMs, resource, level, ip] = [1, 2, 3, 4, 5, 6].map((n) => `$${offset + n}`);
  return `k AS (SELECT id, merchant_id, livemode, permissions,
                     permissions IS NULL OR (${resource}::text IS NOT NULL
                       AND (permissions->>${resource}::text = 'write' OR (${level}::text = 'read' AND permissions->>${resource}::text = 'read'))) AS permitted
                FROM api_keys WHERE ${usableKey(hash)}),
   t AS (${takeTokenText(max, perMs, (full) => `SELECT 'key:' || k.id, ${full} FROM k`)}),
   ip AS (${takeTokenText(max, perMs, (full) => `SELECT ${ip}::text, ${full} WHERE NOT EXISTS (SELECT 1 FROM k)`)})`;
}

const VERDICT_COLUMNS: Record<keyof KeyVerdict, string> = {
  key_id: "k.id",
  key_merchant_id: "k.merchant_id",
  key_livemode: "k.livemode",
  key_permissions: "k.permissions",
  key_permitted: "k.permitted",
  key_tokens: "t.tokens",
  key_allowed: "t.allowed",
  ip_tokens: "ip.tokens",
  ip_allowed: "ip.allowed",
};

/** The verdict's columns and `more` (if any), in one row whether or not a key was found; `joins` brings the statement's own CTEs. */
function selectVerdict(more: string, joins: string): string {
  const verdict = Object.entries(VERDICT_COLUMNS).map(([name, column]) => `${column} AS ${name}`);
  return `SELECT ${[...verdict, more].filter(Boolean).join(", ")}
     FROM (SELECT 1) AS one LEFT JOIN k ON true LEFT JOIN t ON true LEFT JOIN ip ON true ${joins}`;
}

const CLAIM_COLUMNS = `c.id IS NOT NULL AS claimed, COALESCE(c.id, e.id) AS claim_id, COALESCE(c.fingerprint, e.fingerprint) AS fingerprint,
      COALESCE(c.status, e.status) AS status, COALESCE(c.response_status, e.response_status) AS response_status,
      COALESCE(c.response_body, e.response_body) AS response_body`;

/**
 * The claim's CTEs after the key CTEs, parameters from $offset+1: record id, Idempotency-Key, fingerprint, lock
 * seconds, retention hours and, for a route's write, the answer's status and its stored text in test and live mode.
 * The claim is made only when the token was granted and the key allows the route; `e` is the record holding the key
 * when the claim did not take it. With an answer the record is written stored (the route's write runs beside it).
 */
function claimCtes(offset: number, withAnswer: boolean): string {
  const [id, key, fingerprint, lockSeconds, retentionHours, status, test, live] = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `$${offset + n}`);
  const answer = withAnswer
    ? { status: `${status}::int`, body: `CASE WHEN k.livemode THEN ${live}::text ELSE ${test}::text END` }
    : undefined;
  const e = { id, apiKeyId: "k.id", livemode: "k.livemode", key, fingerprint, lockSeconds, retentionHours };
  // A claim alone commits without waiting for its flush (UNFLUSHED_COMMIT_CTE); one written with its answer is the work.
  const from = answer ? "FROM k, t" : "FROM k, t, unflushed";
  return `${answer ? "" : `${UNFLUSHED_COMMIT_CTE},\n   `}c AS (${claimText(e, `${from} WHERE t.allowed AND k.permitted`, answer)}),
   e AS (${existingRecordText("k.id", "k.livemode", key, retentionHours, ", k, t", "t.allowed AND k.permitted AND NOT EXISTS (SELECT 1 FROM c)")})`;
}

// The key CTEs ($1..$6), then the claim ($7..$11).
const FIND_KEY_TAKE_TOKEN_CLAIM = statement(
  "auth_find_key_take_token_claim",
  `WITH ${keyCtes(0)},\n${claimCtes(6, false)}\n${selectVerdict(CLAIM_COLUMNS, "LEFT JOIN c ON true LEFT JOIN e ON true")}`,
);

// A request without a claim (a read, or a route that claims nothing) takes this one, not the claim statement with
// NULLs: a prepared statement's generic plan cannot see that the claim's key is NULL and may read every record of
// the API key to find none, a cost that grew with the key's writes (issue 38: the read's PostgreSQL CPU per request
// rising round over round while POSTs of the same key ran between them).
const FIND_KEY_TAKE_TOKEN = statement("auth_find_key_take_token", `WITH ${keyCtes(0)}\n${selectVerdict("", "")}`);

const withRouteStatements = new Map<string, Statement>();

/**
 * The API-key statement with a route's caller statement (lib/db.ts): its parameters first, then the key CTEs'. For a
 * read, `caller` is the key when its token was granted and it allows the route, else empty, so the route's statement
 * does nothing for a refused request; its row comes back beside the verdict (NULLs then). For a write with an
 * idempotency claim (`claimed`), the claim's parameters follow (claimCtes) and `caller` is the key only when the
 * claim took the Idempotency-Key: a replay, a reused or in-flight key writes nothing either.
 */
function withRouteStatement(route: CallerStatement<unknown>, claimed: boolean): Statement {
  const name = `auth_${claimed ? "claim_" : ""}with_${route.name}`;
  let fused = withRouteStatements.get(name);
  if (!fused) {
    const keys = keyCtes(route.params);
    const caller = `caller AS (SELECT k.id AS api_key_id, k.merchant_id, k.livemode FROM ${claimed ? "k, c" : "k, t WHERE t.allowed AND k.permitted"})`;
    const ctes = [keys, claimed && claimCtes(route.params + 6, true), caller, route.ctes].filter(Boolean).join(",\n");
    // With a claim the route's row is not read (its data-modifying CTEs run all the same): its columns could
    // otherwise shadow the claim's (status, fingerprint, ...) in the row pg returns.
    const select = claimed
      ? selectVerdict(CLAIM_COLUMNS, "LEFT JOIN c ON true LEFT JOIN e ON true")
      : selectVerdict("r.*", `LEFT JOIN (${route.select}) AS r ON true`);
    fused = statement(name, `WITH ${ctes}\n${select}`);
    withRouteStatements.set(name, fused);
  }
  return fused;
}

export function bearerToken(req: Request): string | null {
  const header = req.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

function principalOf(row: KeyRow): Caller {
  return { merchantId: row.merchant_id, apiKeyId: row.id, livemode: row.livemode, permissions: row.permissions };
}

/** 403 for a key that does not allow the route (a restricted key on a route that declares none: secret keys only). */
function permissionDenied(permission: Permission | undefined): ForbiddenError {
  if (permission) return new PermissionDeniedError(permission);
  const err = new ForbiddenError("This path takes secret keys (sk_) only: restricted keys have no permission for it.");
  Object.assign(err.details, { reason: "permission_denied", resource: null, required: null });
  return err;
}

/** Whether the key's grants allow the route's permission (none declared: secret keys only). */
export function keyAllows(grants: Record<string, string> | null | undefined, permission: Permission | undefined): boolean {
  return grants == null || (permission !== undefined && allows(grants, permission));
}

/**
 * The API's authentication step of the request pipeline: authenticates, takes the principal's token, and makes the
 * requested claim or runs the route's statement. A failed attempt costs a token from the caller's IP bucket instead
 * (a brake on guessing keys).
 */
export const byApiKey: Authenticate<Caller> = async (req, headers, claimRequest, permission, route) => {
  const token = bearerToken(req);
  if (!token) return refuse(req, headers, "Missing API key: send 'Authorization: Bearer <API key>'.");
  if (!looksLikeSecret(token)) return refuse(req, headers, "Invalid API key.");
  if (claimRequest && route && !route.answer)
    throw new InvariantViolation("A route with a statement of its own takes no idempotency claim.");
  const presented = { req, secretHash: hashSecret(token), headers, permission };
  if (!bucketsInPostgres()) return stepByStep(presented, claimRequest, route);
  return route ? withRoute(presented, route, claimRequest) : inOneStatement(presented, claimRequest);
};

/** 401 after a token from the client IP's bucket (429 when that is empty). */
async function refuse(req: Request, headers: Headers, message: string): Promise<never> {
  await limitByClientIp(req, headers);
  throw new UnauthorizedError(message);
}

interface Presented {
  req: Request;
  secretHash: string;
  headers: Headers;
  permission?: Permission;
}

/** The key CTEs' parameters (keyCtes). */
function keyValues({ req, secretHash, permission }: Presented): unknown[] {
  const config = bucketConfig();
  return [secretHash, config.max, refillPerMs(config), permission?.[0] ?? null, permission?.[1] ?? null, clientIpBucket(req)];
}

/** The caller, or the statement's refusal in order: 401 (after the IP's token: 429 when that bucket is empty), 429, 403. */
function callerOf(row: KeyVerdict, { headers, permission }: Presented): Caller {
  const config = bucketConfig();
  if (row.key_id === null) {
    applyTakeResult(describeBucket(config, row.ip_allowed!, Number(row.ip_tokens)), headers);
    throw new UnauthorizedError("Invalid API key.");
  }
  applyTakeResult(describeBucket(config, row.key_allowed, Number(row.key_tokens)), headers);
  if (!row.key_permitted) throw permissionDenied(permission);
  return { merchantId: row.key_merchant_id, apiKeyId: row.key_id, livemode: row.key_livemode, permissions: row.key_permissions };
}

async function inOneStatement(presented: Presented, claimRequest?: ClaimRequest): Promise<Authenticated<Caller>> {
  if (!claimRequest) {
    const [verdict] = await sql().rows<KeyVerdict>(FIND_KEY_TAKE_TOKEN, keyValues(presented));
    return { caller: callerOf(verdict, presented) };
  }
  const [row] = await sql().rows<KeyVerdict & ClaimColumns>(FIND_KEY_TAKE_TOKEN_CLAIM, [
    ...keyValues(presented),
    ...claimParams(claimRequest),
  ]);
  const principal = callerOf(row, presented);
  return { caller: principal, claim: await claimOf(row, principal, claimRequest) };
}

/** The claim CTEs' parameters (claimCtes), without an answer: the record id first. */
function claimParams(claimRequest: ClaimRequest): unknown[] {
  const { key, fingerprint } = claimRequest;
  return [createId("idempotency"), key, fingerprint, env.IDEMPOTENCY_LOCK_SECONDS, env.IDEMPOTENCY_RETENTION_HOURS];
}

/** What the claim made in the API-key statement came to: claimed, or decided from the record holding the key. */
function claimOf(row: ClaimColumns, principal: Caller, claimRequest: ClaimRequest): Promise<ClaimOutcome> {
  const firstAttempt: ClaimRow | null = row.claim_id
    ? {
        id: row.claim_id,
        claimed: row.claimed,
        fingerprint: row.fingerprint!,
        status: row.status!,
        response_status: row.response_status,
        response_body: row.response_body,
      }
    : null;
  const scope = { apiKeyId: principal.apiKeyId, livemode: principal.livemode, key: claimRequest.key };
  return claim(sql(), scope, claimRequest.fingerprint, firstAttempt);
}

/**
 * The route's statement inside the API-key statement: the request's one round trip. A route's write with an
 * Idempotency-Key runs only when its claim took the key, and the claim is written stored with the planned answer.
 */
async function withRoute(presented: Presented, route: RouteQuery, claimRequest?: ClaimRequest): Promise<Authenticated<Caller>> {
  const answer = route.answer;
  const claimParameters = answer && claimRequest ? [...claimParams(claimRequest), answer.status, ...answer.stored] : [];
  const values = [...route.values, ...keyValues(presented), ...claimParameters];
  const [row] = await sql().rows<Record<string, unknown>>(withRouteStatement(route.statement, claimParameters.length > 0), values);
  const caller = callerOf(row as unknown as KeyVerdict, presented);
  if (!answer) {
    const own = { ...row };
    for (const name of Object.keys(VERDICT_COLUMNS)) delete own[name];
    return { caller, row: own };
  }
  if (!claimRequest) return { caller, answer: answerIn(answer, caller.livemode) };
  const outcome = await claimOf(row as unknown as ClaimColumns, caller, claimRequest);
  // Claimed by a later attempt (the record that held the key was deleted meanwhile): the write has not run yet.
  if (outcome.kind === "claimed" && outcome.claimId !== claimParameters[0]) await writeWithClaim(route, answer, caller, outcome.claimId);
  return outcome.kind === "replay" ? { caller, claim: outcome } : { caller, answer: answerIn(answer, caller.livemode) };
}

/** A route's write, for a caller known and a claim made, in one statement with its stored answer; a failure frees the claim. */
async function writeWithClaim(route: RouteQuery, answer: PlannedAnswer, caller: Caller, claimId: string): Promise<void> {
  try {
    await writeAndStoreResponse(sql(), route, caller, claimId, answer.status, answer.stored[caller.livemode ? 1 : 0]);
  } catch (err) {
    await settleFailedClaim(claimId, 500, null);
    throw err;
  }
}

async function stepByStep(presented: Presented, claimRequest?: ClaimRequest, route?: RouteQuery): Promise<Authenticated<Caller>> {
  const { req, secretHash, headers, permission } = presented;
  const [row] = await sql().rows<KeyRow>(FIND_KEY, [secretHash]);
  if (!row) return refuse(req, headers, "Invalid API key.");
  const principal = principalOf(row);
  await enforceRateLimit(`key:${principal.apiKeyId}`, headers);
  if (!keyAllows(row.permissions, permission)) throw permissionDenied(permission);
  const scope = claimRequest && { apiKeyId: principal.apiKeyId, livemode: principal.livemode, key: claimRequest.key };
  const outcome = scope && (await claim(sql(), scope, claimRequest.fingerprint));
  if (!route) return { caller: principal, claim: outcome };
  if (!route.answer) return { caller: principal, row: await runAsCaller(sql(), route, principal) };
  if (outcome?.kind === "replay") return { caller: principal, claim: outcome };
  if (outcome) await writeWithClaim(route, route.answer, principal, outcome.claimId);
  else await runAsCaller(sql(), route, principal);
  return { caller: principal, answer: answerIn(route.answer, principal.livemode) };
}
