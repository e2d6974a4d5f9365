// The reads of the objects a checkout owns: orders and PaymentIntents, their status as seen now (an order or
// PaymentIntent still waiting on an overdue checkout reads as canceled / expired; seen-now.ts), in the one
// statement that reads them. They write nothing: the tick writes the transition (expire-checkouts.ts). Here
// rather than in lib/orders and lib/payments, which know nothing of checkouts.
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { ListOrdersInput } from "../orders/schemas";
import { serializeOrder, type OrderFields } from "../orders/serialize";
import { countNewestFirstSql, filterIfGiven, findInScope, listNewestFirstSql, rowsNewestFirstSql, type ListPosition } from "../pagination";
import type { ListPaymentIntentsInput } from "../payments/schemas";
import { serializePaymentIntent, type PaymentIntentFields } from "../payments/serialize";
import type { Scope } from "../scope";
import { orderStatusIs, ORDERS_NOW, paymentIntentStatusIs, PAYMENT_INTENTS_NOW } from "./seen-now";

export async function getOrder(db: Db, scope: Scope, id: string) {
  const order = await findInScope<OrderFields>(db, ORDERS_NOW, scope, id);
  if (!order) throw new NotFoundError("order", id);
  return serializeOrder(order);
}

export async function listOrders(db: Db, scope: Scope, query: ListOrdersInput) {
  const filters = [...orderStatusIs(query.status), ...filterIfGiven("source", query.source)];
  return listNewestFirstSql(db, { ...ORDERS_NOW, scope, filters }, query, (row: OrderFields) => serializeOrder(row));
}

export async function getPaymentIntent(db: Db, scope: Scope, id: string) {
  const pi = await findInScope<PaymentIntentFields>(db, PAYMENT_INTENTS_NOW, scope, id);
  if (!pi) throw new NotFoundError("payment_intent", id);
  return serializePaymentIntent(pi);
}

/** The filters of the PaymentIntents list (the API's query without its page). */
export type PaymentIntentFilters = Omit<ListPaymentIntentsInput, "limit" | "startingAfter">;

/** The PaymentIntents of the scope its filters match: the table as seen now, with the filters' conditions. */
const paymentIntentsMatching = (scope: Scope, query: PaymentIntentFilters) => ({
  ...PAYMENT_INTENTS_NOW,
  scope,
  filters: [
    ...paymentIntentStatusIs(query.status),
    ...filterIfGiven("meter_id", query.meterId),
    ...filterIfGiven("source", query.source),
    ...filterIfGiven("paid_resource_id", query.paidResourceId),
    ...filterIfGiven("customer_id", query.customerId),
  ],
});

export async function listPaymentIntents(db: Db, scope: Scope, query: ListPaymentIntentsInput) {
  return listNewestFirstSql(db, paymentIntentsMatching(scope, query), query, (row: PaymentIntentFields) => serializePaymentIntent(row));
}

/**
 * For a reader that walks the whole list (the dashboard's CSV export): how many PaymentIntents listPaymentIntents
 * lists with these filters, counting at most `atMost`, and the newest one's key, where the walk starts
 * (countNewestFirstSql).
 */
export function countPaymentIntents(db: Db, scope: Scope, filters: PaymentIntentFilters, atMost: number) {
  return countNewestFirstSql(db, paymentIntentsMatching(scope, filters), atMost);
}

/** `take` of the PaymentIntents listPaymentIntents lists, from `position` on (rowsNewestFirstSql): the walk's pages. */
export async function paymentIntentsFrom(db: Db, scope: Scope, filters: PaymentIntentFilters, position: ListPosition, take: number) {
  const rows = await rowsNewestFirstSql<PaymentIntentFields>(db, paymentIntentsMatching(scope, filters), position, take);
  return rows.map(serializePaymentIntent);
}
