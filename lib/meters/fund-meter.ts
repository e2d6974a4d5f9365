// A prepaid meter's budget is funded up front (docs/meters.md "Funding a prepaid budget"): each funding is a
// PaymentIntent of the meter (`meterFunding`), charged through the mode's rail in two steps, so that money is
// never taken without a record of it, nor twice:
// 1. openFunding writes the PaymentIntent (requires_payment, rail charge key `<meterId>:fund:<n>`) in a
//    transaction that commits BEFORE any rail call; a retried request finds it again by its request key.
// 2. chargeFunding, under the PaymentIntent's row lock, charges it through the charge engine
//    (lib/payments/charge-payment.ts; the rail is idempotent on the key), which in the same transaction
//    captures it, posts the ledger and emits payment_intent.captured; the meter's part (FUNDING) raises the budget.
// A request that dies between the two leaves the PaymentIntent requires_payment; the tick reconciles it
// (reconcileFundings) once no charge of it can still land: the engine asks the rail what became of the key
// and records that (recoverCharge), never charging on its own; a charge it finds made counts against the funding's
// spending agent's budgets then (countRecoveredCharge: the dead request's count rolled back with it). A rail that answers `pending` leaves the
// funding processing, for the tick's resolveProcessingPayments.
// Callers: create-meter.ts and top-up-meter.ts (the merchant's key), fund-meter-as-payer.ts (a payer's own key:
// payerMerchantId set, and a payer's own wallet shown to the payee as "customer_wallet").
// A payer's funding may pay as one of its spending agents (spendingAgentId on the PaymentIntent): step 2 checks the
// agent's policy and counts its budgets in the charge's own transaction, before the rail is asked; a refusal rolls
// that transaction back (nothing charged, nothing counted) and calls the funding off (docs/spending-policies.md).
import { TRANSACTION_TIMEOUT_MS, transaction, type Db } from "../db";
import { logUnlessDatabaseDown } from "../db-availability";
import { env } from "../env";
import { ConflictError, PaymentDeclinedError } from "../errors";
import type { Meter, PaymentIntent } from "../generated/prisma/client";
import { inTransaction } from "../in-transaction";
import type { ChargeFollower } from "../payments/apply-charge-outcome";
import { chargePayment, railCertainlyNotCharged } from "../payments/charge-payment";
import { emitPaymentIntentEvent } from "../payments/emit-payment-intent-event";
import { openPaymentIntent } from "../payments/open-payment-intent";
import { recoverCharge } from "../payments/recover-charge";
import { transitionPaymentIntent } from "../payments/transitions";
import { breakerScopeOf, guarded, railFor } from "../rails";
import { countRecoveredCharge } from "../spending-policies/count-charged";
import { enforceSpendingPolicy, releaseSpendingHold, SpendingPolicyRefusal } from "../spending-policies/enforce";
import { FOREIGN_WALLET_METHOD, isCustomerWalletMethod } from "../rails/test-cards";
import { meterClosed, wrongTrustModel } from "./meter-errors";

/** The most a budget may hold in base units: every figure of the meter stays an exact JSON number. */
const MAX_BUDGET_BASE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Step 1, inside the caller's transaction: the next funding of an open prepaid meter. The guarded UPDATE
 * numbers it and refuses a meter that is closed (or is being closed under its row lock right now); then,
 * still under that row lock (held to commit, so fundings of one meter open one at a time), a fresh
 * statement sees every funding opened before and refuses one whose budget, with all pending fundings,
 * would pass MAX_BUDGET_BASE, before any money moves.
 */
export async function openFunding(
  tx: Db,
  meter: Meter,
  amountMinor: number,
  paymentMethod: string,
  requestKey: string | null,
  payer: FundingPayer | null = null,
): Promise<PaymentIntent> {
  const [numbered] = await tx.$queryRaw<{ funding_count: number; funded_minor: bigint; base_units_per_minor: bigint }[]>`
    UPDATE meters SET funding_count = funding_count + 1, updated_at = now()
     WHERE id = ${meter.id} AND status = 'open' AND prepaid
    RETURNING funding_count, funded_minor, base_units_per_minor`;
  if (!numbered) throw meter.prepaid ? meterClosed({ ...meter, status: "closed" }) : wrongTrustModel(meter, "funding");
  const [{ pending }] = await tx.$queryRaw<{ pending: bigint }[]>`
    SELECT coalesce(sum(amount), 0)::bigint AS pending FROM payment_intents
     WHERE meter_id = ${meter.id} AND meter_funding AND status IN ('requires_payment', 'processing')`;
  if ((numbered.funded_minor + pending + BigInt(amountMinor)) * numbered.base_units_per_minor > MAX_BUDGET_BASE) {
    throw new ConflictError(`Meter ${meter.id} cannot be funded further: its budget would pass ${MAX_BUDGET_BASE} base units.`, {
      reason: "meter_totals_limit",
      meterId: meter.id,
    });
  }
  return openPaymentIntent(tx, {
    merchantId: meter.merchantId,
    livemode: meter.livemode,
    amount: amountMinor,
    currency: meter.currency,
    customerId: meter.customerId,
    ...shownAndCharged(meter, paymentMethod, payer),
    meterId: meter.id,
    meterFunding: true,
    source: "meter",
    meterChargeKey: `${meter.id}:fund:${numbered.funding_count}`,
    payerRequestKey: requestKey,
    payerMerchantId: payer?.merchantId ?? null,
    spendingAgentId: payer?.spendingAgentId ?? null,
  });
}

/** Another merchant funding the meter with its own key (POST /v1/meters/:id/fund). */
export interface FundingPayer {
  merchantId: string;
  /** The payer's spending agent the funding pays as (its policy checked at the charge), or null. */
  spendingAgentId?: string | null;
}

/**
 * A payer's own customer wallet is that merchant's `cus_` id: the payee's PaymentIntent shows only
 * "customer_wallet" (as a paywall payment does, apply-outcomes.ts) and the method the rail charges is kept
 * in railPaymentMethod, so a retry and the tick's reconcile (which asks the rail by charge key) need no more.
 */
function shownAndCharged(meter: Meter, paymentMethod: string, payer: FundingPayer | null) {
  const hidden = payer !== null && payer.merchantId !== meter.merchantId && isCustomerWalletMethod(paymentMethod);
  return hidden ? { paymentMethod: FOREIGN_WALLET_METHOD, railPaymentMethod: paymentMethod } : { paymentMethod, railPaymentMethod: null };
}

/** The method the rail charges for this funding (what the request named, even when the payee sees it hidden). */
export function chargedMethodOf(pi: PaymentIntent): string {
  return pi.railPaymentMethod ?? pi.paymentMethod!;
}

export interface FundingHooks {
  /** Test instrument: runs right after the rail charged, before anything is written (fault injection). */
  afterRailCharge?: () => void;
}

/**
 * Step 2: charge the funding and record the outcome in one transaction. Returns the captured PaymentIntent;
 * a decline is committed, then thrown as 402 (details name the meter and the PaymentIntent). A rail failure
 * is thrown as it came. When the rail certainly took nothing, the funding is canceled first and its request
 * key freed: the request never happened, so its retry starts afresh (a pending funding would otherwise hold
 * budget room under the cap, and anyone could pile those up). An unknown outcome (a time-out) stays pending
 * for the request's retry (same charge key) or the tick's reconcile.
 */
export async function chargeFunding(db: Db, paymentIntentId: string, hooks: FundingHooks = {}): Promise<PaymentIntent> {
  // Committed before the charge: the tick's reconcile counts its grace from this stamp, so it never calls
  // off a funding whose charge (this one, or a retry's long after the funding was opened) may still land.
  await db.$executeRaw`UPDATE payment_intents SET updated_at = now() WHERE id = ${paymentIntentId} AND status = 'requires_payment'`;
  const { pi, railError } = await transaction(async (tx) => {
    const pi = await lockFunding(tx, paymentIntentId);
    if (!pi || pi.status !== "requires_payment") return { pi, railError: null }; // a concurrent copy finished it
    const hold = await enforceSpendingPolicy(
      tx,
      { spendingAgentId: pi.spendingAgentId, protocol: "meter" },
      { merchantId: pi.merchantId, livemode: pi.livemode, amount: pi.amount, currency: pi.currency, paymentIntentId: pi.id },
    ); // a refusal throws: this transaction rolls back, nothing charged or counted
    try {
      const charged = await chargePayment(tx, pi, {
        rail: guarded(railFor(pi.livemode), breakerScopeOf(pi)),
        paymentMethod: chargedMethodOf(pi),
        chargeKey: pi.meterChargeKey!,
        follower: FUNDING,
        afterRailCharge: hooks.afterRailCharge,
      });
      if (charged.status === "failed") await releaseSpendingHold(tx, hold); // the decline commits; its budgets get it back
      return { pi: charged, railError: null };
    } catch (err) {
      if (!railCertainlyNotCharged(err)) throw err;
      await releaseSpendingHold(tx, hold);
      return { pi: await callOff(tx, pi), railError: err };
    }
  }).catch(async (err: unknown) => {
    if (err instanceof SpendingPolicyRefusal) await callOffRefused(paymentIntentId);
    throw err;
  });
  if (railError) throw railError;
  return fundingAnswer(pi!);
}

/** A funding that certainly charged nothing: canceled, its request key freed (a retry starts afresh). */
async function callOff(tx: Db, pi: PaymentIntent): Promise<PaymentIntent> {
  const canceled = await transitionPaymentIntent(tx, pi.id, "canceled", { payerRequestKey: null });
  await emitPaymentIntentEvent(tx, "payment_intent.canceled", canceled);
  return canceled;
}

/** A funding its spending agent's policy refused (rolled back): called off, unless a concurrent copy finished it. */
async function callOffRefused(paymentIntentId: string): Promise<void> {
  await transaction(async (tx) => {
    const pi = await lockFunding(tx, paymentIntentId);
    if (pi?.status === "requires_payment") await callOff(tx, pi);
  });
}

/** What a funding's final state means to the request that asked for it. */
export function fundingAnswer(pi: PaymentIntent): PaymentIntent {
  const details = { meterId: pi.meterId, paymentIntentId: pi.id };
  if (pi.status === "failed") {
    throw new PaymentDeclinedError(
      pi.failureReason ?? "generic_decline",
      `The funding charge of meter ${pi.meterId} was declined; the budget is unchanged.`,
      details,
    );
  }
  if (pi.status === "canceled") {
    throw new ConflictError(`The funding ${pi.id} of this request was called off without a charge; retry with a new Idempotency-Key.`, {
      ...details,
      status: pi.status,
    });
  }
  if (pi.status === "requires_payment" || pi.status === "processing") {
    throw new ConflictError(`The funding charge ${pi.id} is still being processed; retry shortly.`, { ...details, status: pi.status });
  }
  return pi;
}

async function lockFunding(tx: Db, id: string): Promise<PaymentIntent | null> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM payment_intents WHERE id = ${id} AND meter_funding FOR UPDATE`;
  return locked[0] ? tx.paymentIntent.findUniqueOrThrow({ where: { id } }) : null;
}

/** Pending, and untouched for longer than any charge may take (the condition is re-checked under the lock). */
async function lockStaleFunding(tx: Db, id: string, graceSeconds: number): Promise<PaymentIntent | null> {
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM payment_intents
     WHERE id = ${id} AND meter_funding AND status = 'requires_payment' AND updated_at < now() - make_interval(secs => ${graceSeconds}::double precision)
       FOR UPDATE SKIP LOCKED`;
  return locked[0] ? tx.paymentIntent.findUniqueOrThrow({ where: { id } }) : null;
}

/**
 * The meter's part of a funding's outcome (the engine writes the PaymentIntent's, the ledger's and the
 * event): a captured funding raises the budget. Funds that arrive after the meter closed (a late reconcile)
 * are flagged for the close settlement, which returns whatever the usage did not draw.
 */
export const FUNDING: ChargeFollower = {
  async captured(tx, pi) {
    await tx.$executeRaw`
      UPDATE meters SET funded_minor = funded_minor + ${pi.amount}::bigint,
             budget_base = budget_base + ${pi.amount}::bigint * base_units_per_minor,
             settle_due_at = CASE WHEN status = 'closed' THEN now() ELSE settle_due_at END, updated_at = now()
       WHERE id = ${pi.meterId}`;
  },
};

/**
 * Tick: fundings left requires_payment by a request that died (or whose rail call timed out), once no
 * charge of theirs can still land: untouched (updated_at, stamped before every charge) for longer than a
 * request's transaction and a rail call may last. The rail is asked about the key: a charge it made is
 * captured, a decline failed, and a key it never saw is canceled. A rail failure leaves it for the next tick.
 */
export async function reconcileFundings(db: Db, batch = 100): Promise<number> {
  const graceSeconds = (TRANSACTION_TIMEOUT_MS + env.RAIL_TIMEOUT_MS) / 1000;
  const stale = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM payment_intents
     WHERE status = 'requires_payment' AND meter_funding AND updated_at < now() - make_interval(secs => ${graceSeconds}::double precision)
     ORDER BY updated_at LIMIT ${batch}`;
  let settled = 0;
  for (const { id } of stale) {
    const done = await inTransaction(db, async (tx) => {
      const pi = await lockStaleFunding(tx, id, graceSeconds);
      if (!pi) return false;
      const recovered = await recoverCharge(tx, pi, pi.meterChargeKey!, { follower: FUNDING });
      if (recovered) await countRecoveredCharge(tx, recovered, pi.updatedAt); // its agent's budget, as the dead request would have
      if (!recovered) await emitPaymentIntentEvent(tx, "payment_intent.canceled", await transitionPaymentIntent(tx, pi.id, "canceled"));
      return true;
    }).catch((err) => {
      logUnlessDatabaseDown(`reconciling meter funding ${id} failed (retried next tick):`, err);
      return false;
    });
    if (done) settled += 1;
  }
  return settled;
}
