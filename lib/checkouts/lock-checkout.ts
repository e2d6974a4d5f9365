// Locks a checkout for the rest of the transaction (captures, cancels and the expiry sweep of one checkout
// run one at a time), and says whether it is past its deadline by the database's clock: one statement.
import { sqlIn, statement, type Db } from "../db";
import { NotFoundError } from "../errors";
import { Prisma, type Checkout } from "../generated/prisma/client";
import type { Scope } from "../scope";
import { selectList } from "../sql-model";

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
