import type { Refund } from "../generated/prisma/client";

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
  };
}
