// The idempotency step of the pipeline (SPEC.md 3.2, section 4 rules 1-5).
import type { Db } from "../db";
import { claim, validateIdempotencyKey, type ClaimOutcome } from "../idempotency/claims";
import { requestFingerprint } from "../idempotency/fingerprint";
import type { Principal } from "./authenticate";

export function idempotencyKeyOf(req: Request): string | null {
  const key = req.headers.get("idempotency-key");
  if (key === null) return null;
  validateIdempotencyKey(key);
  return key;
}

export function claimIdempotencyKey(db: Db, req: Request, principal: Principal, key: string, body: unknown): Promise<ClaimOutcome> {
  const fingerprint = requestFingerprint(req.method, new URL(req.url).pathname, body);
  return claim(db, { apiKeyId: principal.apiKeyId, livemode: principal.livemode, key }, fingerprint);
}
