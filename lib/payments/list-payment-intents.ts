import type { Db } from "../db";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import type { ListPaymentIntentsInput } from "./schemas";
import { serializePaymentIntent } from "./serialize";

export async function listPaymentIntents(db: Db, scope: Scope, query: ListPaymentIntentsInput) {
  return listNewestFirst(
    db.paymentIntent,
    {
      scope: { merchantId: scope.merchantId, livemode: scope.livemode },
      filters: {
        status: query.status,
        meterId: query.meterId,
        source: query.source,
        paidResourceId: query.paidResourceId,
        customerId: query.customerId,
      },
    },
    query,
    serializePaymentIntent,
  );
}
