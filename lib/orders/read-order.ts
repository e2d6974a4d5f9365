// An order by id, in a prepared statement (the charge engine's hot path: lib/sql-model.ts). Its id was read from a
// row that references it, so it exists; the caller checks whose it is.
import { sqlIn, statement, type Db } from "../db";
import { Prisma, type Order } from "../generated/prisma/client";
import { selectList } from "../sql-model";

const READ_ORDER = statement("order_read", `SELECT ${selectList(Prisma.OrderScalarFieldEnum)} FROM orders WHERE id = $1`);

export async function readOrder(db: Db, id: string): Promise<Order> {
  const [order] = await sqlIn(db).rows<Order>(READ_ORDER, [id]);
  if (!order) throw new Error(`Order ${id} does not exist`);
  return order;
}
