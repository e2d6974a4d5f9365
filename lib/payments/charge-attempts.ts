// Charge attempts: the service's own trace of a rail call, committed on a side connection BEFORE the rail
// is called (charge-payment.ts, for every payment), or with the charge itself on a rail whose books are this
// database's (Rail.chargeWithAttempt: the test rail). If the process dies after the rail charged but before
// the request's transaction committed, the attempt is still there, `pending`; whoever next locks the
// payment's owner (a checkout's retried capture, cancel or expiry sweep; a meter's next charge of the same
// key, or the funding reconcile) asks the rail what became of that charge key and applies the answer, so the
// money the rail took is never charged twice nor lost. Statuses: pending, processing (the rail answered
// `pending`), succeeded, declined, failed and abandoned (never charged).
import { sqlIn, sqlOn, statement, TRANSACTION_TIMEOUT_MS, type Db } from "../db";
import { env } from "../env";
import { BusyError, ConflictError } from "../errors";
import type { PaymentAttempt, PaymentIntent } from "../generated/prisma/client";
import { createId } from "../ids";
import type { AttemptWrite, ChargeResult } from "../rails/rail";
import { breakerScopeOf, guarded, railNamed } from "../rails";
import { sidePool } from "../side-pool";
import { selectList, type PlannedWrite } from "../sql-model";
import { Prisma } from "../generated/prisma/client";

// Each statement commits on its own on the attempts' side pool: one round trip.
const INSERT_ATTEMPT = statement(
  "attempt_insert",
  `INSERT INTO payment_attempts (id, payment_intent_id, rail, charge_key, payment_method, status) VALUES ($1, $2, $3, $4, $5, 'pending')`,
);
// A caller-chosen key's attempt: new, or the adoption of the key's earlier one that was never charged (RETURNING id).
const ADOPT_ATTEMPT = statement(
  "attempt_adopt",
  `INSERT INTO payment_attempts (id, payment_intent_id, rail, charge_key, payment_method, status) VALUES ($1, $2, $3, $4, $5, 'pending')
   ON CONFLICT (charge_key) DO UPDATE SET payment_intent_id = EXCLUDED.payment_intent_id, status = 'pending', updated_at = now()
    WHERE payment_attempts.status IN ('pending', 'failed', 'abandoned') AND payment_attempts.payment_method = EXCLUDED.payment_method
   RETURNING id`,
);
const CLOSE_ATTEMPT = statement(
  "attempt_close",
  `UPDATE payment_attempts SET status = $2, updated_at = now() WHERE id = $1 AND status = 'pending'`,
);
const FINISH_ATTEMPT = statement(
  "attempt_finish",
  `UPDATE payment_attempts SET status = $2, rail_charge_id = $3, updated_at = now() WHERE charge_key = $1`,
);
const ATTEMPT_IN_STATUS = statement(
  "attempt_in_status",
  `SELECT ${selectList(Prisma.PaymentAttemptScalarFieldEnum)} FROM payment_attempts WHERE payment_intent_id = $1 AND status = $2 LIMIT 1`,
);

const attempts = () => sqlOn(sidePool("attempts"));

/**
 * An attempt planned but not written: for a rail that writes it with its charge (Rail.chargeWithAttempt), or to commit
 * on its own (recordAttempt). A fresh charge key, or the caller's (`givenKey`, capture-checkout.ts CaptureHooks.chargeKey):
 * the caller holds a lock under which only one request uses that key at a time, and reuses a key only after the
 * transaction of its last use rolled back. That attempt, left pending (or closed as never charged) for a PaymentIntent
 * that no longer exists, is adopted by the new PaymentIntent (`adopts`); the rail then answers the same charge key with
 * the charge it made. An adopted row keeps its own id: the `id` returned is the planned row's (recordAttempt returns
 * the row's).
 */
export function plannedAttempt(
  paymentIntentId: string,
  rail: string,
  paymentMethod: string,
  givenKey?: string,
): { id: string; chargeKey: string; write: AttemptWrite } {
  const id = createId("paymentAttempt");
  const chargeKey = givenKey ?? id; // a fresh key is unique per attempt; the rail dedupes on it
  const values = [id, paymentIntentId, rail, chargeKey, paymentMethod];
  return { id, chargeKey, write: givenKey ? { statement: ADOPT_ATTEMPT, values, adopts: true } : { statement: INSERT_ATTEMPT, values } };
}

/** What a caller-chosen key's attempt that could not be adopted answers: its earlier attempt was charged. */
export function chargeAlreadyMade(paymentIntentId: string, chargeKey: string): ConflictError {
  return new ConflictError("This charge was already made; retry shortly.", { paymentIntentId, chargeKey });
}

/** The attempt committed on its own, before a rail with effects outside this database is called. */
export async function recordAttempt(
  paymentIntentId: string,
  rail: string,
  paymentMethod: string,
  givenKey?: string,
): Promise<{ id: string; chargeKey: string }> {
  const { id, chargeKey, write } = plannedAttempt(paymentIntentId, rail, paymentMethod, givenKey);
  const [written] = await attempts().rows<{ id: string }>(write.statement, [...write.values]);
  if (write.adopts && !written) throw chargeAlreadyMade(paymentIntentId, chargeKey);
  return { id: written?.id ?? id, chargeKey }; // an adopted attempt keeps its id
}

/**
 * Closes an attempt the rail certainly never took: `abandoned` (found pending after a crash, unknown to the
 * rail) or `failed` (the rail refused it, or the breaker never let it through). Committed on its own, as
 * the request's transaction is about to roll back; the caller holds the checkout's lock.
 */
export async function closeAttemptNotCharged(id: string, status: "abandoned" | "failed"): Promise<void> {
  await attempts().count(CLOSE_ATTEMPT, [id, status]);
}

/**
 * The attempt of this charge key as the rail answered it (`processing` while the rail's answer is `pending`): a
 * write of the caller's transaction, planned to run inside its next statement (lib/sql-model.ts fuse).
 */
export function plannedAttemptFinish(chargeKey: string, outcome: ChargeResult): PlannedWrite {
  const status = outcome.status === "pending" ? "processing" : outcome.status;
  return { statement: FINISH_ATTEMPT, values: [chargeKey, status, outcome.chargeId] };
}

/** An attempt of the PaymentIntent in this status, if any. */
export async function attemptInStatus(
  db: Db,
  paymentIntentId: string,
  status: "pending" | "processing",
): Promise<PaymentAttempt | undefined> {
  const [attempt] = await sqlIn(db).rows<PaymentAttempt>(ATTEMPT_IN_STATUS, [paymentIntentId, status]);
  return attempt;
}

/**
 * Resolves a pending attempt left by a request that died mid-charge. Call with the checkout locked, so no
 * live request is inside its own charge. Returns the rail's result to apply, or null when there is none.
 */
export async function recoverPendingAttempt(tx: Db, pi: PaymentIntent): Promise<{ attempt: PaymentAttempt; outcome: ChargeResult } | null> {
  const attempt = await attemptInStatus(tx, pi.id, "pending");
  if (!attempt) return null;
  const outcome = await guarded(railNamed(attempt.rail), breakerScopeOf(pi)).retrieveCharge(attempt.chargeKey);
  if (outcome) return { attempt, outcome };
  // Unknown to the rail. Its request may still be alive, its rail call in flight past a rolled-back
  // transaction; only once no such call can still land is the attempt certainly abandoned.
  // A conflict that passes by itself (BusyError): the Idempotency-Key is freed, not stored with this 409, so the
  // same key retried after a crash or a database outage gets the real answer once the attempt is settled.
  if (Date.now() - attempt.createdAt.getTime() < TRANSACTION_TIMEOUT_MS + env.RAIL_TIMEOUT_MS) {
    throw new BusyError("A charge for this payment is still being processed; retry shortly.", { paymentIntentId: pi.id });
  }
  await closeAttemptNotCharged(attempt.id, "abandoned");
  return null;
}
