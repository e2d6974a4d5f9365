// The idempotency step of the pipeline (docs/api-reference.md "Idempotency", section 4 rules 1-5): what to claim. The claim itself
// is made with authentication (lib/http/authenticate.ts), in the same statement where it can be.
import { validateIdempotencyKey } from "../idempotency/claims";
import { requestFingerprint } from "../idempotency/fingerprint";

/** What a request claims: its key and the fingerprint of its body (the pipeline hands it to authentication). */
export interface ClaimRequest {
  key: string;
  fingerprint: string;
}

export function idempotencyKeyOf(req: Request): string | null {
  const key = req.headers.get("idempotency-key");
  if (key === null) return null;
  validateIdempotencyKey(key);
  return key;
}

/** The claim a mutating request asks for: none without an Idempotency-Key. */
export function claimRequestOf(req: Request, pathname: string, body: unknown): ClaimRequest | undefined {
  const key = idempotencyKeyOf(req);
  return key === null ? undefined : { key, fingerprint: requestFingerprint(req.method, pathname, body) };
}
