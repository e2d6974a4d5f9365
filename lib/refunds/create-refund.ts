// Refund (full or partial) of a captured PaymentIntent, by its id or its order's. The PaymentIntent row is
// locked (SELECT ... FOR UPDATE) before the remainder is computed, so concurrent refunds are decided one at
// a time by the database; the UPDATE's guard and the table's CHECK (amount_refunded <= amount_captured)
// back that up. The rail refund's key is derived from the PaymentIntent's state, so a retry after a crash
// asks the rail for the same refund again instead of a second one.
import type { Db } from "../db";
import { heldByDispute } from "./held-by-dispute";
import { ConflictError, InvariantViolation, NotFoundError, ValidationError } from "../errors";
import { emitOrderEvent } from "../orders/emit-order-event";
import { emitPaymentIntentEvent } from "../payments/emit-payment-intent-event";
import type { PaymentIntent } from "../generated/prisma/client";
import { createId } from "../ids";
import { postRefund } from "../ledger/post";
import { formatMoney } from "../money/format";
import { transitionOrder } from "../orders/transitions";
import { transitionPaymentIntent } from "../payments/transitions";
import { guarded, isNonCustodialRail, railFor } from "../rails";
import type { Scope } from "../scope";
import type { CreateRefundInput } from "./schemas";
import { serializeRefund } from "./serialize";

async function lockPaymentIntent(tx: Db, scope: Scope, input: CreateRefundInput): Promise<PaymentIntent> {
  let id = input.paymentIntentId;
  if (input.orderId) {
    const order = await tx.order.findFirst({ where: { id: input.orderId, merchantId: scope.merchantId, livemode: scope.livemode } });
    if (!order) throw new NotFoundError("order", input.orderId);
    if (id && id !== order.paymentIntentId) {
      throw new ValidationError("orderId and paymentIntentId name different payments.", [
        { path: "orderId", message: "does not belong to paymentIntentId" },
      ]);
    }
    id = order.paymentIntentId;
  }
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM payment_intents WHERE id = ${id} AND merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} FOR UPDATE`;
  if (!rows[0]) throw new NotFoundError("payment_intent", id);
  return tx.paymentIntent.findUniqueOrThrow({ where: { id: rows[0].id } });
}

export async function createRefund(tx: Db, scope: Scope, input: CreateRefundInput) {
  const pi = await lockPaymentIntent(tx, scope, input);
  if (pi.amountCaptured === 0 || !pi.railChargeId) {
    throw new ConflictError(`The PaymentIntent ${pi.id} was never captured (status '${pi.status}'); there is nothing to refund.`, {
      status: pi.status,
    });
  }
  if (isNonCustodialRail(pi.rail)) {
    throw new ConflictError(
      `The PaymentIntent ${pi.id} was paid on chain straight to the merchant's own wallet; this service never held the money and cannot pull it back. Refund the payer from that wallet.`,
      { reason: "non_custodial_payment", settlement: pi.settlement },
    );
  }
  if (pi.meterFunding) await refuseWhileMeterFunds(tx, pi);
  const remainder = pi.amountCaptured - pi.amountRefunded;
  if (remainder === 0) throw new ConflictError(`The PaymentIntent ${pi.id} is already fully refunded.`, { status: pi.status });
  // While a dispute holds part of the payment (open or lost), a refund takes at most what is left beside it.
  const held = await heldByDispute(tx, pi.id);
  const undisputed = remainder - (held?.amount ?? 0);
  const requested = input.amount ?? undisputed;
  if (held && (requested > undisputed || undisputed <= 0)) refuseDisputed(pi, held, requested, undisputed);
  if (requested > remainder) {
    // In the currency's own words ("$30.00"), as a person reads it on the dashboard; the API's amounts stay minor units.
    const [asked, left] = [formatMoney(requested, pi.currency), formatMoney(remainder, pi.currency)];
    throw new ValidationError(`The refund amount ${asked} exceeds the unrefunded remainder ${left}.`, [
      { path: "amount", message: `at most ${left}` },
    ]);
  }

  // The key names "the next refund of this charge" (what was refunded so far), not its amount: if an
  // earlier request refunded at the rail and died before committing, any retry gets that refund back
  // and records it (with the amount the rail actually refunded) instead of refunding a second time.
  const rail = guarded(railFor(pi.livemode), scope); // the refunding merchant's circuit
  const railRefund = await rail.refund({
    key: `${pi.railChargeId}:refund:${pi.amountRefunded}`,
    chargeId: pi.railChargeId,
    amount: requested,
  });
  const amount = railRefund.amount;

  const full = amount === remainder;
  const refundedBefore = pi.amountRefunded;
  const updatedPi = full
    ? await transitionPaymentIntent(tx, pi.id, "refunded", { amountRefunded: { increment: amount } })
    : await tx.paymentIntent.update({ where: { id: pi.id }, data: { amountRefunded: { increment: amount }, updatedAt: new Date() } });
  if (updatedPi.amountRefunded !== refundedBefore + amount)
    throw new InvariantViolation("A concurrent refund changed the PaymentIntent under its lock.");

  const refund = await tx.refund.create({
    data: {
      id: createId("refund"),
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      status: "succeeded",
      amount,
      currency: pi.currency,
      paymentIntentId: pi.id,
      orderId: pi.orderId,
      reason: input.reason ?? null,
      railRefundId: railRefund.refundId,
      createdAt: new Date(),
    },
  });
  await postRefund(tx, pi, pi.id, refund.id, pi.currency, amount, pi.settledAt !== null);
  await emitPaymentIntentEvent(tx, "payment_intent.refunded", updatedPi);
  if (pi.orderId) {
    const order = await transitionOrder(
      tx,
      pi.orderId,
      updatedPi.amountRefunded === updatedPi.amountCaptured ? "refunded" : "partially_refunded",
      {
        amountRefunded: updatedPi.amountRefunded,
      },
    );
    await emitOrderEvent(tx, "order.refunded", order);
  }
  return serializeRefund(refund);
}

/**
 * A prepaid meter's funding backs the budget its calls draw on: refunding it by hand would leave usage
 * unpaid. Its unused part is refunded by the meter's close settlement; only after that may the merchant
 * refund more by hand. A plain read, not a lock: the settlement locks the meter, then the fundings, so
 * locking the meter here (under the PaymentIntent's lock) could deadlock with it; a settlement that runs
 * anyway re-checks each remainder under the PaymentIntent's lock (never refunding past it).
 */
async function refuseWhileMeterFunds(tx: Db, pi: PaymentIntent) {
  const [meter] = await tx.$queryRaw<{ settled: boolean }[]>`
    SELECT status = 'closed' AND settle_due_at IS NULL AS settled FROM meters WHERE id = ${pi.meterId}`;
  if (!meter?.settled) {
    throw new ConflictError(
      `The PaymentIntent ${pi.id} funds the prepaid budget of meter ${pi.meterId}; close the meter and its unused funds are refunded.`,
      { reason: "meter_funding", meterId: pi.meterId, paymentIntentId: pi.id },
    );
  }
}

/** 409: a refund beyond the undisputed remainder of a payment a dispute holds (docs/disputes.md). */
function refuseDisputed(pi: PaymentIntent, held: { disputeId: string; amount: number }, requested: number, undisputed: number): never {
  const [asked, left] = [formatMoney(requested, pi.currency), formatMoney(undisputed, pi.currency)];
  throw new ConflictError(
    `The PaymentIntent ${pi.id} is disputed (${held.disputeId}): a refund may take at most the undisputed remainder ${left}, not ${asked}.`,
    { reason: "disputed", disputeId: held.disputeId, undisputedRemainder: undisputed },
  );
}
