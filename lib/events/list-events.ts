import type { Db } from "../db";
import { afterCursor, NEWEST_FIRST, requireCursor, toListPage } from "../pagination";
import type { Scope } from "../scope";
import type { ListEventsInput } from "./schemas";
import { serializeEvent } from "./serialize";

export async function listEvents(db: Db, scope: Scope, query: ListEventsInput) {
  const inScope = { merchantId: scope.merchantId, livemode: scope.livemode };
  const cursor = query.startingAfter
    ? requireCursor(
        await db.event.findFirst({ where: { ...inScope, id: query.startingAfter }, select: { id: true, createdAt: true } }),
        query.startingAfter,
      )
    : null;
  const rows = await db.event.findMany({
    where: { ...inScope, ...(query.type ? { type: query.type } : {}), ...afterCursor(cursor) },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  return toListPage(rows, query.limit, serializeEvent);
}
