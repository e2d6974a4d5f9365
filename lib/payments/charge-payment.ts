// The charge engine's one path to the rail: record the attempt (committed on its own, before the call; or
// with the charge, on a rail whose books are this database's) -> the rail -> apply the outcome
// (apply-charge-outcome.ts) in the caller's transaction. Checkouts' captures and meters' settlements and
// fundings all charge through it; what stays theirs is what they do around it (the checks before, their
// follower, their answer to a rail failure).
import type { Db } from "../db";
import { CircuitOpenError } from "../errors";
import type { PaymentIntent } from "../generated/prisma/client";
import { RailCallFailedError, type guarded } from "../rails";
import { applyChargeOutcome, type ApplyOptions } from "./apply-charge-outcome";
import { chargeAlreadyMade, closeAttemptNotCharged, plannedAttempt, recordAttempt } from "./charge-attempts";

export interface ChargeRequest extends Omit<ApplyOptions, "rail" | "chargeKey"> {
  rail: ReturnType<typeof guarded>;
  /** What the rail charges (may differ from what the PaymentIntent shows the payee, e.g. another merchant's wallet). */
  paymentMethod: string;
  /**
   * The rail's charge key when the caller must find the same charge again on a retry (a meter's
   * `meterChargeKey`, a shared payment token's `<token>:<n>`); default: a fresh key per attempt.
   */
  chargeKey?: string;
  /** Test instrument: runs right after the rail answered, before anything is written (fault injection). */
  afterRailCharge?: () => void;
  /** The payer passed 3-D Secure for this charge (rail.ts ChargeRequest.authenticated). */
  authenticated?: boolean;
}

/** Whether a failed rail call certainly took nothing (a refusal before processing, or the breaker's fast fail). */
export function railCertainlyNotCharged(err: unknown): boolean {
  return err instanceof CircuitOpenError || (err instanceof RailCallFailedError && err.notCharged);
}

/**
 * Charges `pi` (amount and currency) and applies the outcome; returns the PaymentIntent as it now is. A
 * rail failure is thrown as it came: when the rail certainly took nothing the attempt is closed first;
 * an unknown outcome (a time-out) leaves it pending, for the owner's recovery to ask the rail about.
 */
export async function chargePayment(tx: Db, pi: PaymentIntent, request: ChargeRequest): Promise<PaymentIntent> {
  const { rail, paymentMethod } = request;
  // A rail whose books are this database's writes the attempt with its charge (one round trip, one commit): a fresh
  // key's, or a caller-chosen key's adoption of its earlier attempt, charged only when adopted.
  const withAttempt = rail.chargeWithAttempt;
  const planned = withAttempt ? plannedAttempt(pi.id, rail.name, paymentMethod, request.chargeKey) : undefined;
  const attempt = planned ?? (await recordAttempt(pi.id, rail.name, paymentMethod, request.chargeKey));
  const charge = { key: attempt.chargeKey, amount: pi.amount, currency: pi.currency, paymentMethod, authenticated: request.authenticated };
  const outcome = await (withAttempt && planned ? withAttempt(charge, planned.write) : rail.charge(charge)).catch(async (err) => {
    // Refused with its attempt: nothing of either was written.
    if (railCertainlyNotCharged(err) && !planned) await closeAttemptNotCharged(attempt.id, "failed");
    throw err;
  });
  if (!outcome) throw chargeAlreadyMade(pi.id, attempt.chargeKey); // its adoption did not take: nothing charged
  request.afterRailCharge?.();
  const { changes, payer, follower, known } = request;
  return applyChargeOutcome(tx, pi, outcome, { rail: rail.name, chargeKey: attempt.chargeKey, changes, payer, follower, known });
}
