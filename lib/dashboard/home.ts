// Read models of the dashboard home that no /v1 endpoint has: net revenue per day from the ledger, and
// the latest failed webhook delivery attempts. Both scoped like every domain query.
import type { Db } from "../db";
import { readDailyAmounts } from "../ledger/balances";
import type { Scope } from "../scope";
import { publicDeliveryError } from "../webhooks/delivery-errors";
import { eventObject } from "./events";

export interface RevenueDay {
  /** YYYY-MM-DD (UTC). */
  day: string;
  amount: number;
}

export interface RevenueSeries {
  currency: string;
  days: RevenueDay[];
  total: number;
}

/**
 * Net volume per UTC day for the last `days` days (captures minus refunds), per currency, from the ledger's daily
 * totals of the `payer` account (a capture debits it, a refund credits it back; lib/ledger/balances.ts): its cost
 * does not grow with the merchant's history. Currencies with the most volume first.
 */
export async function revenueByDay(db: Db, scope: Scope, days = 14, now = new Date()): Promise<RevenueSeries[]> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const since = new Date(today - (days - 1) * 86_400_000);
  const rows = await readDailyAmounts(db, scope, "payer", since);
  const byCurrency = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const series = byCurrency.get(row.currency) ?? new Map<string, number>();
    series.set(row.day, -Number(row.amount)); // a capture debits the payer account
    byCurrency.set(row.currency, series);
  }
  const dayKeys = Array.from({ length: days }, (_, index) => new Date(since.getTime() + index * 86_400_000).toISOString().slice(0, 10));
  return [...byCurrency.entries()]
    .map(([currency, amounts]) => {
      const series = dayKeys.map((day) => ({ day, amount: amounts.get(day) ?? 0 }));
      return { currency, days: series, total: series.reduce((sum, day) => sum + day.amount, 0) };
    })
    .sort((a, b) => Math.abs(b.total) - Math.abs(a.total));
}

export interface FailedDelivery {
  id: string;
  eventId: string;
  eventType: string;
  /** A "Send test event" sample, not a payment of the account. */
  sample: boolean;
  endpointId: string;
  endpointUrl: string;
  responseStatus: number | null;
  error: string | null;
  attemptedAt: string;
  nextAttemptAt: string | null;
}

/** The latest failed webhook delivery attempts of the scope's endpoints. */
export async function recentFailedDeliveries(db: Db, scope: Scope, limit = 5): Promise<FailedDelivery[]> {
  const attempts = await db.webhookDeliveryAttempt.findMany({
    where: { status: "failed", delivery: { endpoint: { merchantId: scope.merchantId, livemode: scope.livemode } } },
    orderBy: [{ attemptedAt: "desc" }, { id: "desc" }],
    take: limit,
    include: { delivery: { select: { event: { select: { type: true, data: true } }, endpoint: { select: { url: true } } } } },
  });
  return attempts.map((attempt) => ({
    id: attempt.id,
    eventId: attempt.eventId,
    eventType: attempt.delivery.event.type,
    sample: eventObject(attempt.delivery.event.data)?.sample ?? false,
    endpointId: attempt.endpointId,
    endpointUrl: attempt.delivery.endpoint.url,
    responseStatus: attempt.responseStatus,
    error: publicDeliveryError(attempt.error),
    attemptedAt: attempt.attemptedAt.toISOString(),
    nextAttemptAt: attempt.nextAttemptAt?.toISOString() ?? null,
  }));
}
