import type { Db } from "../db";
import { afterCursor, NEWEST_FIRST, requireCursor, toListPage } from "../pagination";
import type { Scope } from "../scope";
import type { ListPaidResourcesInput } from "./schemas";
import { serializePaidResource } from "./serialize";

export async function listPaidResources(db: Db, scope: Scope, query: ListPaidResourcesInput) {
  const inScope = { merchantId: scope.merchantId, livemode: scope.livemode };
  const cursor = query.startingAfter
    ? requireCursor(
        await db.paidResource.findFirst({ where: { ...inScope, id: query.startingAfter }, select: { id: true, createdAt: true } }),
        query.startingAfter,
      )
    : null;
  const rows = await db.paidResource.findMany({
    where: { ...inScope, ...(query.active === undefined ? {} : { active: query.active }), ...afterCursor(cursor) },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  return toListPage(rows, query.limit, serializePaidResource);
}
