// Idempotency claims (SPEC.md 3.2): a row unique on (API key, mode, key) is claimed before the work runs,
// stored together with the work's own transaction, released when the work fails with a 5xx.
import { openSecret, sealSecret } from "../crypto/secret-box";
import type { Db } from "../db";
import { env } from "../env";
import { ConflictError, InvariantViolation, ValidationError } from "../errors";
import { createId } from "../ids";

export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

export interface ClaimScope {
  apiKeyId: string;
  livemode: boolean;
  key: string;
}

export type ClaimOutcome =
  | { kind: "claimed"; claimId: string }
  | { kind: "replay"; status: number; bodyText: string };

interface ClaimRow {
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

/**
 * One statement claims the key, or takes over a claim whose holder died (in flight past its lock) or a
 * record past retention; otherwise it returns the existing record, which decides replay, 400 or 409.
 */
export async function claim(db: Db, scope: ClaimScope, fingerprint: string): Promise<ClaimOutcome> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const rows = await db.$queryRaw<ClaimRow[]>`
      WITH claim AS (
        INSERT INTO idempotency_records AS r (id, api_key_id, livemode, key, fingerprint, status, locked_until, created_at)
        VALUES (${createId("idempotency")}, ${scope.apiKeyId}, ${scope.livemode}, ${scope.key}, ${fingerprint}, 'in_flight',
                now() + make_interval(secs => ${env.IDEMPOTENCY_LOCK_SECONDS}::int), now())
        ON CONFLICT (api_key_id, livemode, key) DO UPDATE
          SET id = EXCLUDED.id, fingerprint = EXCLUDED.fingerprint, status = 'in_flight', response_status = NULL,
              response_body = NULL, locked_until = EXCLUDED.locked_until, created_at = EXCLUDED.created_at
          WHERE (r.status = 'in_flight' AND r.locked_until < now())
             OR r.created_at < now() - make_interval(hours => ${env.IDEMPOTENCY_RETENTION_HOURS}::int)
        RETURNING id, true AS claimed, fingerprint, status, response_status, response_body
      )
      SELECT * FROM claim
      UNION ALL
      SELECT id, false, fingerprint, status, response_status, response_body FROM idempotency_records
       WHERE api_key_id = ${scope.apiKeyId} AND livemode = ${scope.livemode} AND key = ${scope.key}
         AND NOT EXISTS (SELECT 1 FROM claim)`;
    // Empty when the conflicting row was committed after this statement's snapshot: look again.
    const row = rows[0] ?? (await readRecord(db, scope));
    if (!row) continue; // released between the two reads: try to claim again
    if (row.claimed) return { kind: "claimed", claimId: row.id };
    // SPEC.md 3.2: while the first request runs, the key answers 409 whatever the body.
    if (row.status === "in_flight") {
      throw new ConflictError("A request with this Idempotency-Key is still being processed; retry shortly.");
    }
    if (row.fingerprint !== fingerprint) {
      throw new ValidationError(
        "This Idempotency-Key was already used with different request parameters; use a new key for a new request.",
        [{ path: "Idempotency-Key", message: "already used with a different request" }],
      );
    }
    return { kind: "replay", status: row.response_status ?? 200, bodyText: storedBodyText(row.response_body) };
  }
  throw new ConflictError("A request with this Idempotency-Key is still being processed; retry shortly.");
}

/** JSON text is stored as is; a sealed body (see storeResponse) starts with the sealed-secret format. */
function storedBodyText(stored: string | null): string {
  if (stored === null) return "null";
  return stored.startsWith("v1:") ? openSecret(stored) : stored;
}

async function readRecord(db: Db, scope: ClaimScope): Promise<ClaimRow | undefined> {
  const rows = await db.$queryRaw<ClaimRow[]>`
    SELECT id, false AS claimed, fingerprint, status, response_status, response_body FROM idempotency_records
     WHERE api_key_id = ${scope.apiKeyId} AND livemode = ${scope.livemode} AND key = ${scope.key}`;
  return rows[0];
}

/**
 * Saves the response for replay. Called inside the work's own transaction, so the work and its stored
 * response commit together; if the claim was taken over meanwhile, the whole transaction rolls back.
 */
export async function storeResponse(db: Db, claimId: string, status: number, body: unknown, seal = false): Promise<void> {
  // A response that carries a secret (e.g. a new webhook signing secret) is kept only encrypted.
  const stored = seal ? sealSecret(JSON.stringify(body)) : JSON.stringify(body);
  const updated = await db.$executeRaw`
    UPDATE idempotency_records SET status = 'stored', response_status = ${status}, response_body = ${stored}
     WHERE id = ${claimId} AND status = 'in_flight'`;
  if (updated !== 1) throw new InvariantViolation("The idempotency claim was lost before the request finished.");
}

/** Frees the key after a 5xx or crash, so a retry is a fresh request. */
export async function releaseClaim(db: Db, claimId: string): Promise<void> {
  await db.$executeRaw`DELETE FROM idempotency_records WHERE id = ${claimId} AND status = 'in_flight'`;
}

/** Deletes records past retention and claims long past their lock (the tick calls this). */
export async function purgeExpiredRecords(db: Db): Promise<number> {
  return db.$executeRaw`
    DELETE FROM idempotency_records
     WHERE created_at < now() - make_interval(hours => ${env.IDEMPOTENCY_RETENTION_HOURS}::int)`;
}
