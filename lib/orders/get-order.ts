import { expireOverdueCheckouts } from "../checkouts/expire-checkouts";
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { serializeOrder } from "./serialize";

export async function getOrder(db: Db, scope: Scope, id: string) {
  const find = () => db.order.findFirst({ where: { id, merchantId: scope.merchantId, livemode: scope.livemode } });
  let order = await find();
  if (!order) throw new NotFoundError("order", id);
  if (order.status === "pending" && order.checkoutId && (await expireOverdueCheckouts(db, { scope, checkoutIds: [order.checkoutId] }))) {
    order = (await find())!;
  }
  return serializeOrder(order);
}
