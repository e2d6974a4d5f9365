import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { expireOverdueCheckouts } from "./expire-checkouts";
import { serializeCheckout } from "./serialize";

export async function getCheckout(db: Db, scope: Scope, id: string) {
  await expireOverdueCheckouts(db, { scope, checkoutIds: [id] });
  const checkout = await db.checkout.findFirst({ where: { id, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!checkout) throw new NotFoundError("checkout", id);
  return serializeCheckout(checkout);
}
