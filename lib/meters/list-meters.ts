import type { Db } from "../db";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import type { ListMetersInput } from "./schemas";
import { serializeMeter } from "./serialize";

export async function listMeters(db: Db, scope: Scope, query: ListMetersInput) {
  return listNewestFirst(
    db.meter,
    { scope: { merchantId: scope.merchantId, livemode: scope.livemode }, filters: { status: query.status, customerId: query.customerId } },
    query,
    serializeMeter,
  );
}
