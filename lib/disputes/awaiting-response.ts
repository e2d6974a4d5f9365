// What the dashboard shows of disputes outside their own pages: how many wait for the merchant's response (the
// navigation's badge), and the dispute of one payment (its page links it). Both bounded: a partial index holds the
// disputes still awaiting a response, and a payment has at most one dispute (unique index).
import type { Db } from "../db";
import type { Scope } from "../scope";
import { serializeDispute } from "./serialize";

/** How many of the merchant's disputes await its response, counted up to `cap` (disputes_awaiting_response_idx). */
export async function countAwaitingResponse(db: Db, scope: Scope, cap: number): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM disputes
       WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}
         AND status IN ('needs_response', 'warning_needs_response')
       LIMIT ${cap}) awaiting`;
  return row?.n ?? 0;
}

/** The dispute of a payment, or null. */
export async function disputeOfPayment(db: Db, scope: Scope, paymentIntentId: string) {
  const dispute = await db.dispute.findFirst({ where: { paymentIntentId, merchantId: scope.merchantId, livemode: scope.livemode } });
  return dispute ? serializeDispute(dispute) : null;
}
