// Lazy expiry for reads of the objects a checkout owns: no read shows an order or a PaymentIntent still
// waiting on a checkout that is past its deadline. lib/orders and lib/payments know nothing of checkouts;
// their readers come through here. A list first expires the scope's overdue checkouts; a single read
// expires its checkout only while the object still waits on one, then reads again, so a settled object
// costs no extra round trip. The tick expires the checkouts nobody reads (expire-checkouts.ts).
import type { Db } from "../db";
import { getOrder } from "../orders/get-order";
import { listOrders } from "../orders/list-orders";
import type { ListOrdersInput } from "../orders/schemas";
import { getPaymentIntent } from "../payments/get-payment-intent";
import { listPaymentIntents } from "../payments/list-payment-intents";
import type { ListPaymentIntentsInput } from "../payments/schemas";
import type { Scope } from "../scope";
import { expireOverdueCheckouts } from "./expire-checkouts";

/** Expires the checkout when it is overdue; true when it did (the caller's object changed). */
async function expiredNow(db: Db, scope: Scope, checkoutId: string | null): Promise<boolean> {
  return checkoutId !== null && (await expireOverdueCheckouts(db, { scope, checkoutIds: [checkoutId] })) > 0;
}

export async function getOrderAfterExpiry(db: Db, scope: Scope, id: string) {
  const order = await getOrder(db, scope, id);
  return order.status === "pending" && (await expiredNow(db, scope, order.checkoutId)) ? getOrder(db, scope, id) : order;
}

export async function listOrdersAfterExpiry(db: Db, scope: Scope, query: ListOrdersInput) {
  await expireOverdueCheckouts(db, { scope });
  return listOrders(db, scope, query);
}

export async function getPaymentIntentAfterExpiry(db: Db, scope: Scope, id: string) {
  const pi = await getPaymentIntent(db, scope, id);
  return pi.status === "requires_payment" && (await expiredNow(db, scope, pi.checkoutId)) ? getPaymentIntent(db, scope, id) : pi;
}

export async function listPaymentIntentsAfterExpiry(db: Db, scope: Scope, query: ListPaymentIntentsInput) {
  await expireOverdueCheckouts(db, { scope });
  return listPaymentIntents(db, scope, query);
}
