import type { Db } from "../db";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import type { ListProductsInput } from "./schemas";
import { serializeProduct } from "./serialize";

export async function listProducts(db: Db, scope: Scope, query: ListProductsInput) {
  return listNewestFirst(
    db.product,
    { scope: { merchantId: scope.merchantId, livemode: scope.livemode }, filters: { active: query.active } },
    query,
    serializeProduct,
  );
}
