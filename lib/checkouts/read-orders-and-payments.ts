// The reads of the objects a checkout owns: orders and PaymentIntents, their status as seen now (an order or
// PaymentIntent still waiting on an overdue checkout reads as canceled / expired; seen-now.ts), in the one
// statement that reads them. They write nothing: the tick writes the transition (expire-checkouts.ts). Here
// rather than in lib/orders and lib/payments, which know nothing of checkouts.
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { ListOrdersInput } from "../orders/schemas";
import { serializeOrder, type OrderFields } from "../orders/serialize";
import { filterIfGiven, findInScope, listNewestFirstSql } from "../pagination";
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

export async function listPaymentIntents(db: Db, scope: Scope, query: ListPaymentIntentsInput) {
  const filters = [
    ...paymentIntentStatusIs(query.status),
    ...filterIfGiven("meter_id", query.meterId),
    ...filterIfGiven("source", query.source),
    ...filterIfGiven("paid_resource_id", query.paidResourceId),
    ...filterIfGiven("customer_id", query.customerId),
  ];
  return listNewestFirstSql(db, { ...PAYMENT_INTENTS_NOW, scope, filters }, query, (row: PaymentIntentFields) =>
    serializePaymentIntent(row),
  );
}
