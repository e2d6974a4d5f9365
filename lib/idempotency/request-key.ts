// A request key: what a row written by a request remembers of it, so that a retry of that same request
// finds the row again (domains whose work cannot sit in one transaction with a stored response: a charge
// made between two transactions, one atomic statement). It is a digest of the API key and the
// Idempotency-Key (nothing about the key itself is stored), so two API keys never share one.
import { createHash } from "node:crypto";
import type { Db } from "../db";
import { ValidationError } from "../errors";

/** null without an Idempotency-Key; `purpose` keeps one key used on two endpoints apart (`meters.fund`). */
export function requestDigest(apiKeyId: string, idempotencyKey: string | null, purpose?: string): string | null {
  if (idempotencyKey === null) return null;
  const material = purpose === undefined ? `${apiKeyId}\n${idempotencyKey}` : `${apiKeyId}\n${purpose}\n${idempotencyKey}`;
  return createHash("sha256").update(material).digest("hex");
}

/**
 * requestDigest (without a purpose) as an SQL expression, for a statement that learns the API key itself (one run
 * inside the API-key statement): the same hex digest, NULL when the Idempotency-Key is NULL.
 */
export function requestDigestSql(apiKeyId: string, idempotencyKey: string): string {
  return `encode(sha256(convert_to(${apiKeyId} || chr(10) || ${idempotencyKey}::text, 'UTF8')), 'hex')`;
}

export interface RequestKeySteps<Row, Answer> {
  /** The row this request key wrote, if any. */
  find: (requestKey: string) => Promise<Row | null>;
  /** A retry's answer from the row the first attempt wrote (checking it is the same request). */
  again: (row: Row, requestKey: string) => Answer | Promise<Answer>;
  /** The first attempt (or one without a key): write the row, under the key when there is one. */
  open: () => Promise<Answer>;
}

/**
 * Inside a transaction: the row of this request found again by its key, or opened now. Concurrent copies of
 * one request queue on the key until the first commits, so the second finds its row instead of writing
 * another (the row's unique column is the backstop).
 */
export async function findOrOpenByRequestKey<Row, Answer>(
  tx: Db,
  requestKey: string | null,
  { find, again, open }: RequestKeySteps<Row, Answer>,
): Promise<Answer> {
  if (requestKey) {
    await tx.$queryRaw`SELECT 1 FROM pg_advisory_xact_lock(hashtextextended(${requestKey}, 0))`;
    const existing = await find(requestKey);
    if (existing) return again(existing, requestKey);
  }
  return open();
}

/** docs/api-reference.md "Idempotency": one Idempotency-Key, one request. */
export function assertSameRequest(same: boolean): void {
  if (!same) throw new ValidationError("This Idempotency-Key was already used with different request parameters.");
}
