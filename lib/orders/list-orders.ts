import type { Db } from "../db";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import type { ListOrdersInput } from "./schemas";
import { serializeOrder } from "./serialize";

export async function listOrders(db: Db, scope: Scope, query: ListOrdersInput) {
  return listNewestFirst(
    db.order,
    { scope: { merchantId: scope.merchantId, livemode: scope.livemode }, filters: { status: query.status, source: query.source } },
    query,
    serializeOrder,
  );
}
