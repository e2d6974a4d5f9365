// Locks a checkout for the rest of the transaction (captures, cancels and the expiry sweep of one checkout
// run one at a time), and says whether it is past its deadline by the database's clock: one statement.
import { sqlIn, statement, type Db } from "../db";
import { NotFoundError } from "../errors";
import { Prisma, type Checkout, type Order, type PaymentIntent } from "../generated/prisma/client";
import type { Scope } from "../scope";
import { columnOf, selectList } from "../sql-model";

// By the primary key alone, the scope checked on the row (lib/customers/get-customer.ts says why).
const LOCK_CHECKOUT = statement(
  "checkout_lock",
  `SELECT ${selectList(Prisma.CheckoutScalarFieldEnum)}, (expires_at <= now()) AS overdue
     FROM checkouts WHERE id = $1 FOR UPDATE`,
);

export async function lockCheckout(tx: Db, scope: Scope, id: string): Promise<{ checkout: Checkout; overdue: boolean }> {
  const [row] = await sqlIn(tx).rows<Checkout & { overdue: boolean }>(LOCK_CHECKOUT, [id]);
  if (!row || row.merchantId !== scope.merchantId || row.livemode !== scope.livemode) throw new NotFoundError("checkout", id);
  const { overdue, ...checkout } = row;
  return { checkout, overdue };
}

// The lock, then the PaymentIntent and the order locked and read once it is held (migrations
// 20261206200000_checkout_lock_for_charge and 20261212100000_checkout_lock_for_charge_order say why a function): one
// round trip. The PaymentIntent's fields come as "pi.<field>", the order's as "o.<field>".
const compositeList = (fields: Record<string, string>, composite: string, prefix: string) =>
  Object.keys(fields)
    .map((field) => `(${composite}).${columnOf(field)} AS "${prefix}${field}"`)
    .join(", ");
const LOCK_FOR_CHARGE = statement(
  "checkout_lock_for_charge_with_order",
  `SELECT ${selectList(Prisma.CheckoutScalarFieldEnum, "(l.checkout)")}, l.overdue, l.pending_attempt AS "pendingAttempt",
          ${compositeList(Prisma.PaymentIntentScalarFieldEnum, "l.payment_intent", "pi.")},
          ${compositeList(Prisma.OrderScalarFieldEnum, "l.order_row", "o.")}
     FROM checkout_lock_for_charge($1) l`,
);

/** What lockCheckoutForCharge holds locked until the commit, as it read them once the checkout's lock was held. */
export interface LockedForCharge {
  checkout: Checkout;
  overdue: boolean;
  pi: PaymentIntent;
  order: Order;
  /** Whether an attempt of the PaymentIntent is pending (a charge a crashed request left: lib/payments/recover-charge.ts). */
  pendingAttempt: boolean;
}

/**
 * lockCheckout, and its PaymentIntent and order locked and read once the lock is held, with whether an attempt of the
 * PaymentIntent is pending, in one round trip. Until this transaction changes them, the three rows are as returned.
 */
export async function lockCheckoutForCharge(tx: Db, scope: Scope, id: string): Promise<LockedForCharge> {
  const [row] = await sqlIn(tx).rows<Record<string, unknown>>(LOCK_FOR_CHARGE, [id]);
  if (!row || row.merchantId !== scope.merchantId || row.livemode !== scope.livemode) throw new NotFoundError("checkout", id);
  const checkout: Record<string, unknown> = {};
  const pi: Record<string, unknown> = {};
  const order: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (column.startsWith("pi.")) pi[column.slice(3)] = value;
    else if (column.startsWith("o.")) order[column.slice(2)] = value;
    else if (column in Prisma.CheckoutScalarFieldEnum) checkout[column] = value;
  }
  return {
    checkout: checkout as Checkout,
    overdue: row.overdue as boolean,
    pi: pi as PaymentIntent,
    order: order as Order,
    pendingAttempt: row.pendingAttempt as boolean,
  };
}
