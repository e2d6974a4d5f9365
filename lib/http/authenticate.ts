// Bearer API key -> principal (merchant, key, mode), the principal's rate-limit token, the route's permission
// (a restricted key's grants, docs/restricted-keys.md) and, for a mutating request with an Idempotency-Key, the
// idempotency claim. With the Postgres buckets all four happen in ONE statement (the hot path's first round trip):
// the claim is made only when the token was granted AND the key allows the route, so a denied request never
// claims its Idempotency-Key (a retry of it is denied again, and the key stays free). With Redis: an indexed
// lookup by the key's hash (which brings the grants), the Redis take, the permission, then the claim.
// Order of refusals either way: 401 (no such key, revoked, or past a roll's grace) -> 429 -> 403 permission_denied.
import { sql, statement } from "../db";
import { env } from "../env";
import { ForbiddenError, UnauthorizedError } from "../errors";
import { createId } from "../ids";
import { allows, PermissionDeniedError, type Permission } from "../merchants/permissions";
import { claim, claimText, existingRecordText, type ClaimRow } from "../idempotency/claims";
import { hashSecret, looksLikeSecret } from "../merchants/api-key-secret";
import { bucketConfig, bucketsInPostgres } from "../rate-limit";
import { takeTokenText } from "../rate-limit/postgres-limiter";
import { describeBucket, refillPerMs } from "../rate-limit/token-bucket";
import type { Caller } from "../scope";
import type { ClaimRequest } from "./idempotency-step";
import type { Authenticate, Authenticated } from "./pipeline";
import { applyTakeResult, enforceRateLimit, limitByClientIp } from "./rate-limit-step";

/** An idempotency claim to make once the key is known and its token taken. */
interface KeyRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  /** A restricted key's grants; null for a secret key. */
  permissions: Record<string, string> | null;
}

interface KeyLimitClaimRow extends KeyRow {
  permitted: boolean;
  tokens: number;
  allowed: boolean;
  claim_id: string | null;
  claimed: boolean;
  fingerprint: string | null;
  status: string | null;
  response_status: number | null;
  response_body: string | null;
}

/** A key that authenticates: not revoked, and not past the grace period of a roll. */
const USABLE_KEY = "secret_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())";

const FIND_KEY = statement("auth_find_key", `SELECT id, merchant_id, livemode, permissions FROM api_keys WHERE ${USABLE_KEY}`);

// $1 secret hash, $2 bucket size, $3 refill per ms, then the claim (all null without one): $4 record id,
// $5 Idempotency-Key, $6 fingerprint, $7 lock seconds, $8 retention hours; then the route's permission:
// $9 resource, $10 level ("read" | "write"; null with $9 for a route that takes secret keys only). The claim is
// made only when the token was granted and the key allows the route; `e` is the record holding the key when the
// claim did not take it. A secret key (permissions null) is allowed everything; write implies read.
const FIND_KEY_TAKE_TOKEN_CLAIM = statement(
  "auth_find_key_take_token_claim",
  `WITH k AS (SELECT id, merchant_id, livemode, permissions,
                     permissions IS NULL OR ($9::text IS NOT NULL
                       AND (permissions->>$9::text = 'write' OR ($10::text = 'read' AND permissions->>$9::text = 'read'))) AS permitted
                FROM api_keys WHERE ${USABLE_KEY}),
   t AS (${takeTokenText("$2", "$3", (full) => `SELECT 'key:' || k.id, ${full} FROM k`)}),
   c AS (${claimText(
     { id: "$4", apiKeyId: "k.id", livemode: "k.livemode", key: "$5", fingerprint: "$6", lockSeconds: "$7", retentionHours: "$8" },
     "FROM k, t WHERE t.allowed AND k.permitted AND $5::text IS NOT NULL",
   )}),
   e AS (${existingRecordText("k.id", "k.livemode", "$5", ", k, t", "t.allowed AND k.permitted AND NOT EXISTS (SELECT 1 FROM c)")})
   SELECT k.id, k.merchant_id, k.livemode, k.permissions, k.permitted, t.tokens, t.allowed, c.id IS NOT NULL AS claimed,
          COALESCE(c.id, e.id) AS claim_id, COALESCE(c.fingerprint, e.fingerprint) AS fingerprint,
          COALESCE(c.status, e.status) AS status, COALESCE(c.response_status, e.response_status) AS response_status,
          COALESCE(c.response_body, e.response_body) AS response_body
     FROM k LEFT JOIN t ON true LEFT JOIN c ON true LEFT JOIN e ON true`,
);

export function bearerToken(req: Request): string | null {
  const header = req.headers.get("authorization");
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

function presentedSecretHash(req: Request): string {
  const token = bearerToken(req);
  if (!token) throw new UnauthorizedError("Missing API key: send 'Authorization: Bearer <API key>'.");
  if (!looksLikeSecret(token)) throw new UnauthorizedError("Invalid API key.");
  return hashSecret(token);
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
 * The API's authentication step of the request pipeline: authenticates, takes the principal's token and makes the
 * requested claim. A failed attempt costs a token from the caller's IP bucket instead (a brake on guessing keys).
 */
export const byApiKey: Authenticate<Caller> = async (req, headers, claimRequest, permission) => {
  try {
    const secretHash = presentedSecretHash(req);
    return bucketsInPostgres()
      ? await inOneStatement(secretHash, headers, claimRequest, permission)
      : await stepByStep(secretHash, headers, claimRequest, permission);
  } catch (err) {
    if (err instanceof UnauthorizedError) await limitByClientIp(req, headers);
    throw err;
  }
};

async function inOneStatement(
  secretHash: string,
  headers: Headers,
  claimRequest?: ClaimRequest,
  permission?: Permission,
): Promise<Authenticated<Caller>> {
  const config = bucketConfig();
  const [row] = await sql().rows<KeyLimitClaimRow>(FIND_KEY_TAKE_TOKEN_CLAIM, [
    secretHash,
    config.max,
    refillPerMs(config),
    claimRequest ? createId("idempotency") : null,
    claimRequest?.key ?? null,
    claimRequest?.fingerprint ?? null,
    env.IDEMPOTENCY_LOCK_SECONDS,
    env.IDEMPOTENCY_RETENTION_HOURS,
    permission?.[0] ?? null,
    permission?.[1] ?? null,
  ]);
  if (!row) throw new UnauthorizedError("Invalid API key.");
  applyTakeResult(describeBucket(config, row.allowed, Number(row.tokens)), headers);
  if (!row.permitted) throw permissionDenied(permission);
  const principal = principalOf(row);
  if (!claimRequest) return { caller: principal };
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
  return { caller: principal, claim: await claim(sql(), scope, claimRequest.fingerprint, firstAttempt) };
}

async function stepByStep(
  secretHash: string,
  headers: Headers,
  claimRequest?: ClaimRequest,
  permission?: Permission,
): Promise<Authenticated<Caller>> {
  const [row] = await sql().rows<KeyRow>(FIND_KEY, [secretHash]);
  if (!row) throw new UnauthorizedError("Invalid API key.");
  const principal = principalOf(row);
  await enforceRateLimit(`key:${principal.apiKeyId}`, headers);
  if (!keyAllows(row.permissions, permission)) throw permissionDenied(permission);
  if (!claimRequest) return { caller: principal };
  const scope = { apiKeyId: principal.apiKeyId, livemode: principal.livemode, key: claimRequest.key };
  return { caller: principal, claim: await claim(sql(), scope, claimRequest.fingerprint) };
}
