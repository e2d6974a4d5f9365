// The charge engine's recovery: a payment whose outcome the service does not hold yet is settled by asking
// the rail about its charge key (retrieveCharge) and applying the answer with applyChargeOutcome, for any
// owner. Two cases: a charge a crash (or a time-out) left unknown, its attempt `pending` (recoverPendingCharge
// for a checkout's capture, cancel or expiry; recoverCharge by key for a meter funding's reconcile), both
// under the owner's lock; and a PaymentIntent `processing`, whose rail answered `pending` (the tick's
// resolveProcessingPayments, or the owner under its lock through resolveProcessing).
import type { Db } from "../db";
import { logUnlessDatabaseDown } from "../db-availability";
import type { PaymentIntent } from "../generated/prisma/client";
import { inTransaction } from "../in-transaction";
import { breakerScopeOf, guarded, railFor, railNamed } from "../rails";
import { applyChargeOutcome, type ApplyOptions, type ChargeFollower } from "./apply-charge-outcome";
import { attemptInStatus, recoverPendingAttempt } from "./charge-attempts";

type OwnerOptions = Omit<ApplyOptions, "rail" | "chargeKey">;

/**
 * A crashed charge of `pi` (its attempt still pending), applied if the rail made it; null when there is none
 * (or the rail never took it: the attempt is closed as abandoned). `ownerFor` gives the owner's fields and
 * follower for the attempt's payment method; `pendingAttempt: false` when the caller read, under the owner's lock, that
 * none is pending (lib/checkouts/lock-checkout.ts lockCheckoutForCharge). Throws BusyError while that charge may still be in flight.
 */
export async function recoverPendingCharge(
  tx: Db,
  pi: PaymentIntent,
  owner: { ownerFor: (paymentMethod: string) => Promise<OwnerOptions>; pendingAttempt?: boolean },
): Promise<PaymentIntent | null> {
  if (owner.pendingAttempt === false) return null; // read with the PaymentIntent under the owner's lock
  const pending = await recoverPendingAttempt(tx, pi);
  if (!pending) return null;
  const { attempt, outcome } = pending;
  const { changes, payer, follower } = await owner.ownerFor(attempt.paymentMethod);
  return applyChargeOutcome(tx, pi, outcome, { rail: attempt.rail, chargeKey: attempt.chargeKey, changes, payer, follower });
}

/**
 * The charge of `chargeKey` as the rail made it, applied; null when the rail never took it (its attempt, if
 * any, closed as abandoned). For an owner that has decided on its own that no call with this key can still
 * land (a meter funding untouched for longer than a charge may take).
 */
export async function recoverCharge(
  tx: Db,
  pi: PaymentIntent,
  chargeKey: string,
  owner: { follower?: ChargeFollower },
): Promise<PaymentIntent | null> {
  const rail = guarded(railFor(pi.livemode), breakerScopeOf(pi));
  const outcome = await rail.retrieveCharge(chargeKey);
  if (!outcome) {
    await tx.paymentAttempt.updateMany({ where: { chargeKey, status: "pending" }, data: { status: "abandoned", updatedAt: new Date() } });
    return null;
  }
  return applyChargeOutcome(tx, pi, outcome, { rail: rail.name, chargeKey, follower: owner.follower });
}

/**
 * A `processing` PaymentIntent: the rail's answer for its charge applied, or the PaymentIntent as it was
 * while the rail still answers `pending`. The caller holds the owner's lock and the PaymentIntent's.
 */
export async function resolveProcessing(tx: Db, pi: PaymentIntent, owner: { follower?: ChargeFollower } = {}): Promise<PaymentIntent> {
  const attempt = await attemptInStatus(tx, pi.id, "processing");
  if (!attempt) return pi;
  const outcome = await guarded(railNamed(attempt.rail), breakerScopeOf(pi)).retrieveCharge(attempt.chargeKey);
  if (!outcome || outcome.status === "pending") return pi;
  return applyChargeOutcome(tx, pi, outcome, { rail: attempt.rail, chargeKey: attempt.chargeKey, follower: owner.follower });
}

/**
 * Locks the owner of a PaymentIntent (a checkout's row) and says what it writes with the outcome; null when
 * the owner is busy (locked by its own request): the PaymentIntent is left to that request or the next tick.
 * Supplied by the tick (lib/cron), which sits above the owners; lib/payments knows none of them.
 */
export type LockOwner = (tx: Db, pi: PaymentIntent) => Promise<{ follower?: ChargeFollower } | null>;

/**
 * Tick: every `processing` PaymentIntent asks its rail once per tick. Each in its own transaction: the
 * owner's lock first (the order a capture takes them in), then the PaymentIntent's (SKIP LOCKED), the
 * status re-checked under it, so two ticks resolve it once. Returns how many were resolved.
 */
export async function resolveProcessingPayments(db: Db, lockOwner: LockOwner, batch = 500): Promise<number> {
  const processing = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM payment_intents WHERE status = 'processing' ORDER BY updated_at, id LIMIT ${batch}`;
  let resolved = 0;
  for (const { id } of processing) {
    const done = await inTransaction(db, async (tx) => {
      const seen = await tx.paymentIntent.findUnique({ where: { id } });
      if (seen?.status !== "processing") return false;
      const owner = await lockOwner(tx, seen);
      if (!owner) return false;
      const [locked] = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM payment_intents WHERE id = ${id} AND status = 'processing' FOR UPDATE SKIP LOCKED`;
      if (!locked) return false;
      const pi = await resolveProcessing(tx, await tx.paymentIntent.findUniqueOrThrow({ where: { id } }), owner);
      return pi.status !== "processing";
    }).catch((err) => {
      logUnlessDatabaseDown(`resolving processing payment ${id} failed (retried next tick):`, err);
      return false;
    });
    if (done) resolved += 1;
  }
  return resolved;
}
