import type { Db } from "../db";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import { expireOverdueCheckouts } from "./expire-checkouts";
import type { ListCheckoutsInput } from "./schemas";
import { serializeCheckout } from "./serialize";

export async function listCheckouts(db: Db, scope: Scope, query: ListCheckoutsInput) {
  await expireOverdueCheckouts(db, { scope });
  return listNewestFirst(
    db.checkout,
    { scope: { merchantId: scope.merchantId, livemode: scope.livemode }, filters: { status: query.status } },
    query,
    serializeCheckout,
  );
}
