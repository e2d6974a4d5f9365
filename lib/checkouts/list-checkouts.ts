import type { Db } from "../db";
import { afterCursor, NEWEST_FIRST, requireCursor, toListPage } from "../pagination";
import type { Scope } from "../scope";
import { expireOverdueCheckouts } from "./expire-checkouts";
import type { ListCheckoutsInput } from "./schemas";
import { serializeCheckout } from "./serialize";

export async function listCheckouts(db: Db, scope: Scope, query: ListCheckoutsInput) {
  await expireOverdueCheckouts(db, { scope });
  const inScope = { merchantId: scope.merchantId, livemode: scope.livemode };
  const cursor = query.startingAfter
    ? requireCursor(
        await db.checkout.findFirst({ where: { ...inScope, id: query.startingAfter }, select: { id: true, createdAt: true } }),
        query.startingAfter,
      )
    : null;
  const rows = await db.checkout.findMany({
    where: { ...inScope, ...(query.status ? { status: query.status } : {}), ...afterCursor(cursor) },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  return toListPage(rows, query.limit, serializeCheckout);
}
