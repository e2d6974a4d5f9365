import { expireOverdueCheckouts } from "../checkouts/expire-checkouts";
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { serializePaymentIntent } from "./serialize";

export async function getPaymentIntent(db: Db, scope: Scope, id: string) {
  const find = () => db.paymentIntent.findFirst({ where: { id, merchantId: scope.merchantId, livemode: scope.livemode } });
  let pi = await find();
  if (!pi) throw new NotFoundError("payment_intent", id);
  if (pi.status === "requires_payment" && pi.checkoutId && (await expireOverdueCheckouts(db, { scope, checkoutIds: [pi.checkoutId] }))) {
    pi = (await find())!;
  }
  return serializePaymentIntent(pi);
}
