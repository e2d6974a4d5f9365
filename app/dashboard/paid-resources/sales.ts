// A paid resource's sales, as its list and its page show them: its PaymentIntents that were paid (captured,
// settled, or refunded since), counted, and their net amount (captured less refunded).
import type { Db } from "@/lib/db";
import type { Scope } from "@/lib/scope";

export interface PaidResourceSales {
  count: number;
  net: number;
}

export async function paidResourceSales(db: Db, scope: Scope, ids: string[]): Promise<Map<string, PaidResourceSales>> {
  if (!ids.length) return new Map();
  const sales = await db.paymentIntent.groupBy({
    by: ["paidResourceId"],
    where: { merchantId: scope.merchantId, livemode: scope.livemode, paidResourceId: { in: ids }, amountCaptured: { gt: 0 } },
    _count: { _all: true },
    _sum: { amountCaptured: true, amountRefunded: true },
  });
  return new Map(
    sales.map((s) => [s.paidResourceId!, { count: s._count._all, net: (s._sum.amountCaptured ?? 0) - (s._sum.amountRefunded ?? 0) }]),
  );
}
