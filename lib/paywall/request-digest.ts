// What a paywall row remembers of the request that wrote it: a digest of the API key and the
// Idempotency-Key, so a retry of that same request is recognised (and nothing about the key is stored).
import { createHash } from "node:crypto";

export function requestDigest(apiKeyId: string, idempotencyKey: string | null): string | null {
  return idempotencyKey === null ? null : createHash("sha256").update(`${apiKeyId}\n${idempotencyKey}`).digest("hex");
}
