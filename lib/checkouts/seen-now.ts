// Expiry as every reader sees it (docs/architecture.md "Expiry"): an open checkout is expired from the moment
// its deadline passes, though only the tick writes the transition and its events (expire-checkouts.ts). A read
// computes the status in the statement that reads the row, and writes nothing: the SQL here gives the status
// the tick's applyExpiry will write (checkout expired, PaymentIntent expired, order canceled; it changes no
// other field the objects show). A checkout whose charge is unresolved (a payment attempt still pending: a
// capture in flight, or one a crash left behind; or processing: the rail answers later) is shown as stored:
// the tick settles that charge first, and may find it paid.
//
// The SQL names its tables unaliased (`FROM checkouts`, `FROM payment_intents`, `FROM orders`). Its lookups are
// scalar subqueries, so that PostgreSQL probes an index per row that still waits (a checkout by primary key,
// attempts by PaymentIntent) and never hashes a whole table instead; a list stays on its scope's index, the
// status filter checked on each row the scan meets, as a plain status filter is.
import { Prisma } from "../generated/prisma/client";
import { orderColumns } from "../orders/serialize";
import type { SqlTable } from "../pagination";
import { paymentIntentColumns } from "../payments/serialize";
import { checkoutColumns } from "./serialize";

/** How a table's rows look as seen now: `overdue` (SQL, never NULL) holds for a row `waiting` on an overdue checkout, shown as `shownAs`. */
interface Overdue {
  table: string;
  waiting: string;
  shownAs: string;
  overdue: string;
}

/** SQL: a charge of that PaymentIntent (an SQL expression giving its id) is in flight or unresolved. */
const chargeUnresolved = (paymentIntentId: string) =>
  `(SELECT true FROM payment_attempts pa WHERE pa.payment_intent_id = ${paymentIntentId} AND pa.status IN ('pending', 'processing') LIMIT 1) IS TRUE`;

/** An order or PaymentIntent waiting on an overdue checkout (its checkout by primary key). */
function waitingOnCheckout(table: string, waiting: string, shownAs: string, paymentIntentId: string): Overdue {
  const checkoutOverdue = `(SELECT oc.status = 'open' AND oc.expires_at <= now() FROM checkouts oc WHERE oc.id = ${table}.checkout_id) IS TRUE`;
  const overdue = `(${table}.status = '${waiting}' AND ${checkoutOverdue} AND NOT ${chargeUnresolved(paymentIntentId)})`;
  return { table, waiting, shownAs, overdue };
}

const CHECKOUT: Overdue = {
  table: "checkouts",
  waiting: "open",
  shownAs: "expired",
  overdue: `(checkouts.status = 'open' AND checkouts.expires_at <= now() AND NOT ${chargeUnresolved("checkouts.payment_intent_id")})`,
};
const PAYMENT_INTENT = waitingOnCheckout("payment_intents", "requires_payment", "expired", "payment_intents.id");
const ORDER = waitingOnCheckout("orders", "pending", "canceled", "orders.payment_intent_id");

/** SQL: the row's status as seen now. */
const statusNow = (o: Overdue) => `(CASE WHEN ${o.overdue} THEN '${o.shownAs}' ELSE ${o.table}.status END)`;

/**
 * A list's `status` filter as seen now: the shown status takes the overdue rows in, the waiting one leaves
 * them out; any other is the plain condition (so the planner keeps its column statistics).
 */
function statusIs(o: Overdue, status: string | undefined): Prisma.Sql[] {
  if (status === undefined) return [];
  if (status === o.shownAs) return [Prisma.raw(`(${o.table}.status = '${o.shownAs}' OR ${o.overdue})`)];
  if (status === o.waiting) return [Prisma.raw(`(${o.table}.status = '${o.waiting}' AND NOT ${o.overdue})`)];
  return [Prisma.sql`${Prisma.raw(o.table)}.status = ${status}`];
}

/** The tables as seen now: each API object's columns, its status computed as above. */
export const CHECKOUTS_NOW: SqlTable = { table: "checkouts", columns: checkoutColumns(statusNow(CHECKOUT)) };
export const PAYMENT_INTENTS_NOW: SqlTable = { table: "payment_intents", columns: paymentIntentColumns(statusNow(PAYMENT_INTENT)) };
export const ORDERS_NOW: SqlTable = { table: "orders", columns: orderColumns(statusNow(ORDER)) };

export const checkoutStatusIs = (status: string | undefined) => statusIs(CHECKOUT, status);
export const paymentIntentStatusIs = (status: string | undefined) => statusIs(PAYMENT_INTENT, status);
export const orderStatusIs = (status: string | undefined) => statusIs(ORDER, status);
