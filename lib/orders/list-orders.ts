import { expireOverdueCheckouts } from "../checkouts/expire-checkouts";
import type { Db } from "../db";
import { afterCursor, NEWEST_FIRST, requireCursor, toListPage } from "../pagination";
import type { Scope } from "../scope";
import type { ListOrdersInput } from "./schemas";
import { serializeOrder } from "./serialize";

export async function listOrders(db: Db, scope: Scope, query: ListOrdersInput) {
  await expireOverdueCheckouts(db, { scope });
  const inScope = { merchantId: scope.merchantId, livemode: scope.livemode };
  const cursor = query.startingAfter
    ? requireCursor(
        await db.order.findFirst({ where: { ...inScope, id: query.startingAfter }, select: { id: true, createdAt: true } }),
        query.startingAfter,
      )
    : null;
  const rows = await db.order.findMany({
    where: {
      ...inScope,
      ...(query.status ? { status: query.status } : {}),
      ...(query.source ? { source: query.source } : {}),
      ...afterCursor(cursor),
    },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  return toListPage(rows, query.limit, serializeOrder);
}
