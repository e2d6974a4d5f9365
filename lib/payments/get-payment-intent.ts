import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { serializePaymentIntent } from "./serialize";

/** A plain read: readers that must see an overdue checkout as expired use lib/checkouts/read-after-expiry.ts. */
export async function getPaymentIntent(db: Db, scope: Scope, id: string) {
  const pi = await db.paymentIntent.findFirst({ where: { id, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!pi) throw new NotFoundError("payment_intent", id);
  return serializePaymentIntent(pi);
}
