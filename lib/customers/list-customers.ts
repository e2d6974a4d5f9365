import type { Db } from "../db";
import { afterCursor, NEWEST_FIRST, requireCursor, toListPage } from "../pagination";
import type { Scope } from "../scope";
import type { ListCustomersInput } from "./schemas";
import { serializeCustomer } from "./serialize";

export async function listCustomers(db: Db, scope: Scope, query: ListCustomersInput) {
  const inScope = { merchantId: scope.merchantId, livemode: scope.livemode };
  const cursor = query.startingAfter
    ? requireCursor(
        await db.customer.findFirst({ where: { ...inScope, id: query.startingAfter }, select: { id: true, createdAt: true } }),
        query.startingAfter,
      )
    : null;
  const rows = await db.customer.findMany({ where: { ...inScope, ...afterCursor(cursor) }, orderBy: NEWEST_FIRST, take: query.limit + 1 });
  return toListPage(rows, query.limit, serializeCustomer);
}
