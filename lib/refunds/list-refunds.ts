import type { Db } from "../db";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import type { ListRefundsInput } from "./schemas";
import { serializeRefund } from "./serialize";

export async function listRefunds(db: Db, scope: Scope, query: ListRefundsInput) {
  return listNewestFirst(
    db.refund,
    { scope: { merchantId: scope.merchantId, livemode: scope.livemode }, filters: { paymentIntentId: query.paymentIntentId } },
    query,
    serializeRefund,
  );
}
