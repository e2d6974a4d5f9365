// A request key: what a row written by a request remembers of it, so that a retry of that same request
// finds the row again (domains whose work cannot sit in one transaction with a stored response: a charge
// made between two transactions, one atomic statement). It is a digest of the API key and the
// Idempotency-Key (nothing about the key itself is stored), so two API keys never share one.
import { createHash } from "node:crypto";
import type { Db } from "../db";

export function requestDigest(apiKeyId: string, idempotencyKey: string | null): string | null {
  return idempotencyKey === null ? null : createHash("sha256").update(`${apiKeyId}\n${idempotencyKey}`).digest("hex");
}

/**
 * Inside a transaction, before looking the key's row up: concurrent copies of one request queue here
 * until the first commits, so the second finds its row instead of writing another (the row's unique
 * column is the backstop).
 */
export async function queueCopiesOfRequest(tx: Db, requestKey: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM pg_advisory_xact_lock(hashtextextended(${requestKey}, 0))`;
}
