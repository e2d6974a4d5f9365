import type { Db } from "../db";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import type { ListPaidResourcesInput } from "./schemas";
import { serializePaidResource } from "./serialize";

export async function listPaidResources(db: Db, scope: Scope, query: ListPaidResourcesInput) {
  return listNewestFirst(
    db.paidResource,
    { scope: { merchantId: scope.merchantId, livemode: scope.livemode }, filters: { active: query.active } },
    query,
    (row) => serializePaidResource(row), // never with a secret
  );
}
