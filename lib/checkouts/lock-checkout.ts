// Locks a checkout for the rest of the transaction (captures, cancels and the expiry sweep of one checkout
// run one at a time), and says whether it is past its deadline by the database's clock.
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Checkout } from "../generated/prisma/client";
import type { Scope } from "../scope";

export async function lockCheckout(tx: Db, scope: Scope, id: string): Promise<{ checkout: Checkout; overdue: boolean }> {
  const rows = await tx.$queryRaw<{ overdue: boolean }[]>`
    SELECT (expires_at <= now()) AS overdue FROM checkouts
     WHERE id = ${id} AND merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} FOR UPDATE`;
  if (!rows[0]) throw new NotFoundError("checkout", id);
  const checkout = await tx.checkout.findUniqueOrThrow({ where: { id } });
  return { checkout, overdue: rows[0].overdue };
}
