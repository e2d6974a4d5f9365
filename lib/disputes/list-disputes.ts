import type { Db } from "../db";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import type { ListDisputesInput } from "./schemas";
import { serializeDispute } from "./serialize";

export async function listDisputes(db: Db, scope: Scope, query: ListDisputesInput) {
  return listNewestFirst(
    db.dispute,
    {
      scope: { merchantId: scope.merchantId, livemode: scope.livemode },
      filters: { paymentIntentId: query.paymentIntentId, status: query.status },
    },
    query,
    serializeDispute,
  );
}
