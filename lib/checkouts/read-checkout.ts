// A checkout by id, in a prepared statement (the charge engine's path: lib/sql-model.ts). Its id was read from a row
// that references it, or from the checkout itself, so it exists; the caller checks whose it is.
import { sqlIn, statement, type Db } from "../db";
import { Prisma, type Checkout } from "../generated/prisma/client";
import { selectList } from "../sql-model";

const READ_CHECKOUT = statement("checkout_read", `SELECT ${selectList(Prisma.CheckoutScalarFieldEnum)} FROM checkouts WHERE id = $1`);

export async function readCheckout(db: Db, id: string): Promise<Checkout> {
  const [checkout] = await sqlIn(db).rows<Checkout>(READ_CHECKOUT, [id]);
  if (!checkout) throw new Error(`Checkout ${id} does not exist`);
  return checkout;
}
