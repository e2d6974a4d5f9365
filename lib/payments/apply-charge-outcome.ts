// The one function that applies a rail's answer to a PaymentIntent, whoever started the payment (a
// checkout's capture, a meter's settlement or funding, the tick's recovery): the PaymentIntent's transition,
// its ledger posting and its payment_intent.* event, and the owner's own writes (ChargeFollower), all in the
// caller's transaction. The caller holds the locks that make the transition its own (the checkout's row,
// the PaymentIntent's row).
import { deferWrites, type Db, type PlannedWrite } from "../db";
import type { PaymentIntent, Prisma } from "../generated/prisma/client";
import { capturePosting, payoutPosting, plannedPosting } from "../ledger/post";
import { isNonCustodialRail } from "../rails";
import type { ChargeResult } from "../rails/rail";
import { plannedAttemptFinish } from "./charge-attempts";
import { plannedPaymentIntentEvent } from "./emit-payment-intent-event";
import { predictedPaymentIntentTransition, transitionPaymentIntent } from "./transitions";

/**
 * What the payment's owner writes with an outcome. Its events stand around the PaymentIntent's as
 * docs/api-reference.md "Events" lists them: `captured` runs before payment_intent.captured (a checkout's
 * order.paid comes first), `failed` after payment_intent.failed (then order.canceled).
 */
export interface ChargeFollower {
  captured?(tx: Db, pi: PaymentIntent): Promise<void>;
  /**
   * `captured` planned ahead, given the payer the PaymentIntent will record: its transitions run fused into the
   * PaymentIntent's (one round trip fewer, each checked as its own), or deferred with it when asked to `predict` and
   * able to (CapturePlan.predicted), then `after` with the captured PaymentIntent (its events). Used instead of
   * `captured` when the payer is known before the statement.
   */
  plannedCapture?(customerId: string | null, predict?: boolean): CapturePlan;
  failed?(tx: Db, pi: PaymentIntent): Promise<void>;
}

/** A follower's writes with a capture (ChargeFollower.plannedCapture), and what it does once the PaymentIntent is captured. */
export interface CapturePlan {
  writes: PlannedWrite[];
  after(tx: Db, pi: PaymentIntent): Promise<void>;
  /**
   * Asked to `predict`, the follower knew its rows unchanged: its writes are deferred ones, each checked to move its
   * row (predictedTransition, lib/sql-model.ts), and its rows are the predicted ones (nothing is read back).
   */
  predicted?: boolean;
}

export interface ApplyOptions {
  /** The rail that answered. */
  rail: string;
  /** The charge key of the payment attempt the answer is about (its row is finished with it). */
  chargeKey?: string;
  /** More fields the owner records on the PaymentIntent with the outcome (a checkout: the method shown, the payer, billing). */
  changes?: Omit<Prisma.PaymentIntentUpdateManyMutationInput, "status" | "id">;
  /** Who paid (a customer), recorded when the rail took the charge (captured or processing), not on a decline. */
  payer?: string | null;
  follower?: ChargeFollower;
  /**
   * The PaymentIntent as given is its row as this transaction knows it, and no other transaction can change it (this
   * one opened it, or holds it locked and has not changed it): a capture on a custodial rail, whose follower can predict
   * its own rows too, is planned from it and deferred (predictedTransition), with no round trip of its own.
   */
  known?: boolean;
}

/**
 * `succeeded`: captured, the ledger's capture posting, payment_intent.captured. `declined`: failed,
 * payment_intent.failed. `pending` (the rail took it and answers later): processing and
 * payment_intent.processing; the tick's resolveProcessingPayments applies the rail's final answer.
 */
export async function applyChargeOutcome(tx: Db, pi: PaymentIntent, outcome: ChargeResult, options: ApplyOptions): Promise<PaymentIntent> {
  const { follower } = options;
  // Round trips (lib/db.ts): the attempt's outcome is written in the PaymentIntent's transition statement (predicted:
  // deferred with it); events and postings, which nothing in the transaction reads, with its next statement
  // (deferWrites), in this order.
  const attempt = options.chargeKey ? [plannedAttemptFinish(options.chargeKey, outcome)] : [];
  const recorded = { ...options.changes, rail: options.rail, railChargeId: outcome.chargeId };
  const taken = options.payer === undefined ? recorded : { ...recorded, customerId: options.payer };
  if (outcome.status === "pending") {
    const processing = await transitionPaymentIntent(tx, pi.id, "processing", taken, attempt);
    await deferWrites(tx, [plannedPaymentIntentEvent("payment_intent.processing", processing)]);
    return processing;
  }
  if (outcome.status === "succeeded") {
    const settlement = outcome.settlement ? { settlement: outcome.settlement } : {};
    const changes = { ...taken, ...settlement, amountCaptured: pi.amount, capturedAt: new Date() };
    const payer = payerAfter(pi, changes);
    // A custodial rail's capture is the PaymentIntent's last move here (a non-custodial one's is settled next, by a read).
    const predict = options.known === true && !isNonCustodialRail(options.rail);
    const plan = payer !== undefined ? follower?.plannedCapture?.(payer, predict) : undefined;
    const captured = plan?.predicted
      ? await capturePredicted(tx, pi, changes, [...attempt, ...plan.writes])
      : await transitionPaymentIntent(tx, pi.id, "captured", changes, [...attempt, ...(plan?.writes ?? [])]);
    await (plan ? plan.after(tx, captured) : follower?.captured?.(tx, captured));
    const posting = plannedPosting(capturePosting(captured, captured.id, captured.currency, captured.amountCaptured));
    await deferWrites(tx, [...posting.writes, plannedPaymentIntentEvent("payment_intent.captured", captured)]);
    if (!isNonCustodialRail(options.rail)) return captured;
    // Already in the merchant's own wallet: paid out with the capture, settled in the same transaction.
    const settled = await transitionPaymentIntent(tx, pi.id, "settled", { settledAt: captured.capturedAt });
    const payout = plannedPosting(payoutPosting(settled, settled.id, settled.currency, settled.amountCaptured));
    await deferWrites(tx, [...payout.writes, plannedPaymentIntentEvent("payment_intent.settled", settled)]);
    return settled;
  }
  const failed = await transitionPaymentIntent(tx, pi.id, "failed", { ...recorded, failureReason: outcome.reason }, attempt);
  await deferWrites(tx, [plannedPaymentIntentEvent("payment_intent.failed", failed)]);
  await follower?.failed?.(tx, failed);
  return failed;
}

/** The capture planned from the PaymentIntent as this transaction knows it, deferred with `writes`: its row as it will be. */
async function capturePredicted(tx: Db, pi: PaymentIntent, changes: Prisma.PaymentIntentUpdateManyMutationInput, writes: PlannedWrite[]) {
  const captured = predictedPaymentIntentTransition(pi, "captured", changes);
  await deferWrites(tx, [captured.write, ...writes]);
  return captured.row;
}

/** The customer the PaymentIntent will record with `changes`; undefined when not a plain value (known only after the UPDATE). */
function payerAfter(pi: PaymentIntent, changes: { customerId?: unknown }): string | null | undefined {
  const given = changes.customerId;
  if (given === undefined) return pi.customerId;
  return typeof given === "string" || given === null ? given : undefined;
}
