// GET /v1/payment_intents/:id/receipt (docs/receipts.md): the receipt of one of the key's PaymentIntents (another
// merchant's or mode's is 404, as GET /v1/payment_intents/:id answers).
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { receiptOf } from "./receipt-for";
import { serializeReceipt } from "./serialize";

export async function getReceipt(db: Db, scope: Scope, paymentIntentId: string) {
  const pi = await db.paymentIntent.findFirst({ where: { id: paymentIntentId, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!pi) throw new NotFoundError("payment_intent", paymentIntentId);
  return serializeReceipt(pi.id, await receiptOf(db, pi));
}
