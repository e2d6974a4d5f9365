// The one lock of a credential that must be used once (docs/architecture.md, "Concurrency is decided by the
// database"): an x402 authorization's nonce, an MPP challenge, a shared payment token, a Mastercard agentic token,
// a Visa credential. It is a transaction-scoped advisory lock on the credential's key, TRIED: a second request
// spending the same credential right now is told at once (false) instead of holding a database connection while
// it waits, so a burst of one credential costs one connection. The lock only decides who goes first; the spend itself is the caller's statement that can
// succeed only once (a primary key; a row locked FOR UPDATE and then marked used), which also refuses every later
// request after the first committed. Released at commit or rollback.
import { sqlIn, statement, type Db } from "./db";

/** The credentials spent once; the kind keeps their keys apart. */
export type SingleUseKind = "x402" | "mpp" | "spt" | "atk" | "visa";

/** true: this transaction holds the credential until it ends; false: another transaction is spending it now. */
const TRY_LOCK = statement("single_use_lock", "SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked");

export async function lockSingleUse(tx: Db, kind: SingleUseKind, key: string): Promise<boolean> {
  const [row] = await sqlIn(tx).rows<{ locked: boolean }>(TRY_LOCK, [`${kind}:${key}`]);
  return row?.locked === true;
}

const WAIT_LOCK = statement("single_use_wait", "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))::text AS held");

/**
 * The same lock, WAITED for: for a change of the credential itself (a shared payment token's revoke), which queues
 * behind a spend in progress, while a spend arriving meanwhile is told at once by its try (it never waits on it).
 */
export async function waitForSingleUse(tx: Db, kind: SingleUseKind, key: string): Promise<void> {
  await sqlIn(tx).rows(WAIT_LOCK, [`${kind}:${key}`]);
}
