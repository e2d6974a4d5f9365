import type { Db } from "../db";
import { afterCursor, NEWEST_FIRST, requireCursor, toListPage } from "../pagination";
import type { Scope } from "../scope";
import type { ListProductsInput } from "./schemas";
import { serializeProduct } from "./serialize";

export async function listProducts(db: Db, scope: Scope, query: ListProductsInput) {
  const inScope = { merchantId: scope.merchantId, livemode: scope.livemode };
  const cursor = query.startingAfter
    ? requireCursor(
        await db.product.findFirst({ where: { ...inScope, id: query.startingAfter }, select: { id: true, createdAt: true } }),
        query.startingAfter,
      )
    : null;
  const rows = await db.product.findMany({
    where: { ...inScope, ...(query.active === undefined ? {} : { active: query.active }), ...afterCursor(cursor) },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  return toListPage(rows, query.limit, serializeProduct);
}
