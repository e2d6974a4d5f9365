// What each ending of a checkout writes: the transitions of checkout, PaymentIntent and order, the ledger
// posting, and the docs/api-reference.md "Events" events, all in the caller's transaction.
import type { Db } from "../db";
import { emitOrderEvent } from "../orders/emit-order-event";
import { emitPaymentIntentEvent } from "../payments/emit-payment-intent-event";
import type { Checkout, Order, PaymentIntent } from "../generated/prisma/client";
import { postCapture } from "../ledger/post";
import { transitionOrder } from "../orders/transitions";
import { finishAttempt, recoverPendingAttempt } from "../payments/charge-attempts";
import { transitionPaymentIntent } from "../payments/transitions";
import type { ChargeResult } from "../rails/rail";
import { FOREIGN_WALLET_METHOD, isCustomerWalletMethod } from "../rails/test-cards";
import { transitionCheckout } from "./transitions";

export type AppliedCharge = { kind: "paid"; order: Order; paymentIntent: PaymentIntent } | { kind: "declined"; reason: string };

export async function applyChargeOutcome(
  tx: Db,
  checkout: Checkout,
  attempt: { id: string; paymentMethod: string; rail: string; billing?: { name?: string; country?: string } },
  outcome: ChargeResult,
): Promise<AppliedCharge> {
  await finishAttempt(tx, attempt.id, outcome);
  const now = new Date();
  const shownMethod = await paymentMethodShownToPayee(tx, checkout, attempt.paymentMethod);
  const billing = { billingName: attempt.billing?.name ?? null, billingCountry: attempt.billing?.country ?? null };
  if (outcome.status === "succeeded") {
    const payer = checkout.customerId ?? (isCustomerWalletMethod(shownMethod) ? shownMethod : null);
    const pi = await transitionPaymentIntent(tx, checkout.paymentIntentId, "captured", {
      amountCaptured: checkout.amount,
      capturedAt: now,
      paymentMethod: shownMethod,
      rail: attempt.rail,
      railChargeId: outcome.chargeId,
      customerId: payer,
      ...billing,
    });
    const order = await transitionOrder(tx, checkout.orderId, "paid", { customerId: payer });
    await transitionCheckout(tx, checkout.id, "complete");
    await postCapture(tx, pi, pi.id, pi.currency, pi.amountCaptured);
    await emitOrderEvent(tx, "order.paid", order);
    await emitPaymentIntentEvent(tx, "payment_intent.captured", pi);
    return { kind: "paid", order, paymentIntent: pi };
  }
  const pi = await transitionPaymentIntent(tx, checkout.paymentIntentId, "failed", {
    failureReason: outcome.reason,
    paymentMethod: shownMethod,
    rail: attempt.rail,
    railChargeId: outcome.chargeId,
    ...billing,
  });
  const order = await transitionOrder(tx, checkout.orderId, "canceled");
  await transitionCheckout(tx, checkout.id, "failed");
  await emitPaymentIntentEvent(tx, "payment_intent.failed", pi);
  await emitOrderEvent(tx, "order.canceled", order);
  return { kind: "declined", reason: outcome.reason };
}

async function paymentMethodShownToPayee(tx: Db, checkout: Checkout, paymentMethod: string): Promise<string> {
  if (!isCustomerWalletMethod(paymentMethod)) return paymentMethod;
  const payeesOwn = await tx.customer.count({ where: { id: paymentMethod, merchantId: checkout.merchantId, livemode: checkout.livemode } });
  return payeesOwn ? paymentMethod : FOREIGN_WALLET_METHOD;
}

/** An open checkout passed its deadline: never charged, PaymentIntent expired, order canceled. */
export async function applyExpiry(tx: Db, checkout: Checkout): Promise<void> {
  await transitionCheckout(tx, checkout.id, "expired");
  const pi = await transitionPaymentIntent(tx, checkout.paymentIntentId, "expired");
  const order = await transitionOrder(tx, checkout.orderId, "canceled");
  await emitPaymentIntentEvent(tx, "payment_intent.expired", pi);
  await emitOrderEvent(tx, "order.canceled", order);
}

/** The merchant called the checkout off before any charge. */
export async function applyCancel(tx: Db, checkout: Checkout): Promise<Checkout> {
  const canceled = await transitionCheckout(tx, checkout.id, "canceled");
  const pi = await transitionPaymentIntent(tx, checkout.paymentIntentId, "canceled");
  const order = await transitionOrder(tx, checkout.orderId, "canceled");
  await emitPaymentIntentEvent(tx, "payment_intent.canceled", pi);
  await emitOrderEvent(tx, "order.canceled", order);
  return canceled;
}

/**
 * Locked-checkout preamble shared by capture, cancel and expiry: applies a charge a crashed request left
 * behind. Returns what it applied, if anything, and the checkout as it now is.
 */
export async function recoverCrashedCharge(tx: Db, checkout: Checkout, pi: PaymentIntent) {
  if (checkout.status !== "open") return { checkout, recovered: null };
  const pending = await recoverPendingAttempt(tx, pi);
  if (!pending) return { checkout, recovered: null };
  const recovered = await applyChargeOutcome(tx, checkout, pending.attempt, pending.outcome);
  return { checkout: await tx.checkout.findUniqueOrThrow({ where: { id: checkout.id } }), recovered };
}
