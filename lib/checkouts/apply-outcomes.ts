// What each ending of a checkout writes besides its PaymentIntent's: the transitions of checkout and order
// and the order.* events, all in the caller's transaction. A charge's outcome is applied by the charge
// engine (lib/payments/apply-charge-outcome.ts), with checkoutFollower for the checkout's and order's part.
import { isCustomerOf } from "../customers/is-customer-of";
import { deferWrites, type Db } from "../db";
import type { Checkout, Order, PaymentIntent, Prisma } from "../generated/prisma/client";
import { emitOrderEvent, plannedOrderEvent } from "../orders/emit-order-event";
import { readOrder } from "../orders/read-order";
import { plannedOrderTransition, predictedOrderTransition, transitionOrder } from "../orders/transitions";
import type { ChargeFollower } from "../payments/apply-charge-outcome";
import { emitPaymentIntentEvent } from "../payments/emit-payment-intent-event";
import { recoverPendingCharge, resolveProcessing } from "../payments/recover-charge";
import { transitionPaymentIntent } from "../payments/transitions";
import { FOREIGN_WALLET_METHOD, isCustomerWalletMethod } from "../rails/test-cards";
import { readCheckout } from "./read-checkout";
import { plannedCheckoutTransition, predictedCheckoutTransition, transitionCheckout } from "./transitions";

/** A charge of the checkout, as applied: paid, declined, or processing (the rail answers later). */
export type AppliedCharge = { kind: "paid"; order: Order } | { kind: "declined"; reason: string } | { kind: "processing"; order: Order };

/** A checkout's follower, holding the order as the outcome left it (paid), so that its answer need not read it again. */
export interface CheckoutFollower extends ChargeFollower {
  order?: Order;
}

/**
 * The checkout's part of a charge's outcome: paid -> order paid (by the PaymentIntent's payer), checkout complete.
 * `known`: the order as this transaction inserted it (CaptureHooks.opened) or holds it locked (lockCheckoutForCharge),
 * unchanged since, with `checkout` likewise: a capture's transitions may be predicted.
 */
export function checkoutFollower(checkout: Checkout, known?: Order): CheckoutFollower {
  const follower: CheckoutFollower = {
    // Order and checkout inside the PaymentIntent's statement (each checked); the event with the next (deferWrites).
    // Predicted (rows this transaction opened or holds locked): all three deferred, each checked, nothing read back.
    plannedCapture(customerId, predict) {
      if (predict && known) {
        const paid = predictedOrderTransition(known, "paid", { customerId });
        follower.order = paid.row;
        const writes = [paid.write, predictedCheckoutTransition(checkout, "complete").write];
        return { writes, predicted: true, after: (tx) => deferWrites(tx, [plannedOrderEvent("order.paid", paid.row)]) };
      }
      const paid = plannedOrderTransition(checkout.orderId, "paid", { customerId }, (order) => (follower.order = order));
      return {
        writes: [paid, plannedCheckoutTransition(checkout.id, "complete")],
        after: (tx) => deferWrites(tx, [plannedOrderEvent("order.paid", follower.order as Order)]),
      };
    },
    // The same, where the payer is known only from the captured PaymentIntent: order and checkout in one statement.
    async captured(tx, pi) {
      const complete = plannedCheckoutTransition(checkout.id, "complete");
      const order = await transitionOrder(tx, checkout.orderId, "paid", { customerId: pi.customerId }, [complete]);
      await deferWrites(tx, [plannedOrderEvent("order.paid", order)]);
      follower.order = order;
    },
    async failed(tx) {
      const failed = plannedCheckoutTransition(checkout.id, "failed");
      const order = await transitionOrder(tx, checkout.orderId, "canceled", {}, [failed]);
      await deferWrites(tx, [plannedOrderEvent("order.canceled", order)]);
    },
  };
  return follower;
}

/**
 * The checkout as the owner of a charge paid with `paymentMethod`: its follower, and what its PaymentIntent
 * records: the method as the payee may see it (another merchant's customer wallet shows as
 * "customer_wallet"), the billing details given at capture, and the payer (the checkout's customer, or the
 * payee's own wallet that paid).
 */
export async function checkoutAsOwner(
  tx: Db,
  checkout: Checkout,
  paymentMethod: string,
  billing?: { name?: string; country?: string },
  knownOrder?: Order,
) {
  const shownMethod = await paymentMethodShownToPayee(tx, checkout, paymentMethod);
  const changes: Prisma.PaymentIntentUpdateManyMutationInput = {
    paymentMethod: shownMethod,
    billingName: billing?.name ?? null,
    billingCountry: billing?.country ?? null,
  };
  const payer = checkout.customerId ?? (isCustomerWalletMethod(shownMethod) ? shownMethod : null);
  return { changes, payer, follower: checkoutFollower(checkout, knownOrder) };
}

async function paymentMethodShownToPayee(tx: Db, checkout: Checkout, paymentMethod: string): Promise<string> {
  if (!isCustomerWalletMethod(paymentMethod)) return paymentMethod;
  return (await isCustomerOf(tx, checkout, paymentMethod)) ? paymentMethod : FOREIGN_WALLET_METHOD;
}

/** The charge's outcome as the checkout's callers see it (`paidOrder`: the order its follower made paid, if known). */
export async function appliedCharge(tx: Db, checkout: Checkout, pi: PaymentIntent, paidOrder?: Order): Promise<AppliedCharge> {
  if (pi.status === "failed") return { kind: "declined", reason: pi.failureReason ?? "generic_decline" };
  const order = paidOrder ?? (await readOrder(tx, checkout.orderId));
  return pi.status === "processing" ? { kind: "processing", order } : { kind: "paid", order };
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
 * Locked-checkout preamble shared by capture, cancel and expiry: the charge engine settles a charge a crashed
 * request left behind, or asks the rail again about a processing one. Returns what it found, if anything
 * (`processing`: still undecided), and the checkout as it now is. `pendingAttempt`: whether a charge attempt is
 * pending, when read with the PaymentIntent under the lock (lib/checkouts/lock-checkout.ts lockCheckoutForCharge); unknown: looked up.
 */
export async function recoverCrashedCharge(tx: Db, checkout: Checkout, pi: PaymentIntent, pendingAttempt?: boolean) {
  if (checkout.status !== "open") return { checkout, recovered: null };
  const settled =
    pi.status === "processing"
      ? await resolveProcessing(tx, pi, { follower: checkoutFollower(checkout) })
      : await recoverPendingCharge(tx, pi, { ownerFor: (method) => checkoutAsOwner(tx, checkout, method), pendingAttempt });
  if (!settled) return { checkout, recovered: null };
  const recovered = await appliedCharge(tx, checkout, settled);
  return { checkout: await readCheckout(tx, checkout.id), recovered };
}

/** Locks a processing PaymentIntent's checkout for the tick (SKIP LOCKED: null while its own request holds it). */
export async function lockCheckoutOwner(tx: Db, checkoutId: string): Promise<{ follower: ChargeFollower } | null> {
  const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM checkouts WHERE id = ${checkoutId} FOR UPDATE SKIP LOCKED`;
  if (!locked) return null;
  return { follower: checkoutFollower(await readCheckout(tx, checkoutId)) };
}
