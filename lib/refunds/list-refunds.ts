import type { Db } from "../db";
import { afterCursor, NEWEST_FIRST, requireCursor, toListPage } from "../pagination";
import type { Scope } from "../scope";
import type { ListRefundsInput } from "./schemas";
import { serializeRefund } from "./serialize";

export async function listRefunds(db: Db, scope: Scope, query: ListRefundsInput) {
  const inScope = { merchantId: scope.merchantId, livemode: scope.livemode };
  const cursor = query.startingAfter
    ? requireCursor(
        await db.refund.findFirst({ where: { ...inScope, id: query.startingAfter }, select: { id: true, createdAt: true } }),
        query.startingAfter,
      )
    : null;
  const rows = await db.refund.findMany({
    where: { ...inScope, ...(query.paymentIntentId ? { paymentIntentId: query.paymentIntentId } : {}), ...afterCursor(cursor) },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  return toListPage(rows, query.limit, serializeRefund);
}
