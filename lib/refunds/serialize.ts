import type { z } from "zod";
import type { Refund } from "../generated/prisma/client";
import type { SqlTable } from "../pagination";
import type { RefundObject } from "./schemas";

/** The columns the API object shows (a raw-SQL read selects just these: REFUNDS). */
export type RefundFields = Pick<
  Refund,
  "id" | "status" | "amount" | "currency" | "paymentIntentId" | "orderId" | "reason" | "livemode" | "createdAt"
>;

/** The refunds table as the API shows it, for the raw-SQL reads of lib/pagination.ts (the list, a refund by id). */
export const REFUNDS: SqlTable = {
  table: "refunds",
  columns: `id, status, amount, currency, payment_intent_id AS "paymentIntentId", order_id AS "orderId", reason, livemode,
    created_at AS "createdAt"`,
};

export function serializeRefund(refund: RefundFields) {
  return {
    id: refund.id,
    object: "refund" as const,
    status: refund.status,
    amount: refund.amount,
    currency: refund.currency,
    paymentIntentId: refund.paymentIntentId,
    orderId: refund.orderId,
    reason: refund.reason,
    livemode: refund.livemode,
    createdAt: refund.createdAt.toISOString(),
  } satisfies z.input<typeof RefundObject>;
}
