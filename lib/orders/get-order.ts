import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { serializeOrder } from "./serialize";

/** A plain read: readers that must see an overdue checkout as expired use lib/checkouts/read-after-expiry.ts. */
export async function getOrder(db: Db, scope: Scope, id: string) {
  const order = await db.order.findFirst({ where: { id, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!order) throw new NotFoundError("order", id);
  return serializeOrder(order);
}
