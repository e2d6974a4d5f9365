import type { z } from "zod";
import type { Refund } from "../generated/prisma/client";
import type { RefundObject } from "./schemas";

export function serializeRefund(refund: Refund) {
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
