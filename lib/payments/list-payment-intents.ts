import { expireOverdueCheckouts } from "../checkouts/expire-checkouts";
import type { Db } from "../db";
import { afterCursor, NEWEST_FIRST, requireCursor, toListPage } from "../pagination";
import type { Scope } from "../scope";
import type { ListPaymentIntentsInput } from "./schemas";
import { serializePaymentIntent } from "./serialize";

export async function listPaymentIntents(db: Db, scope: Scope, query: ListPaymentIntentsInput) {
  await expireOverdueCheckouts(db, { scope });
  const inScope = { merchantId: scope.merchantId, livemode: scope.livemode };
  const cursor = query.startingAfter
    ? requireCursor(
        await db.paymentIntent.findFirst({ where: { ...inScope, id: query.startingAfter }, select: { id: true, createdAt: true } }),
        query.startingAfter,
      )
    : null;
  const rows = await db.paymentIntent.findMany({
    where: {
      ...inScope,
      ...(query.status ? { status: query.status } : {}),
      ...(query.meterId ? { meterId: query.meterId } : {}),
      ...(query.source ? { source: query.source } : {}),
      ...(query.paidResourceId ? { paidResourceId: query.paidResourceId } : {}),
      ...(query.customerId ? { customerId: query.customerId } : {}),
      ...afterCursor(cursor),
    },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  return toListPage(rows, query.limit, serializePaymentIntent);
}
