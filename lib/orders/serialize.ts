import type { Order } from "../generated/prisma/client";

export function serializeOrder(order: Order) {
  return {
    id: order.id,
    object: "order" as const,
    status: order.status,
    checkoutId: order.checkoutId,
    paymentIntentId: order.paymentIntentId,
    amount: order.amount,
    amountRefunded: order.amountRefunded,
    currency: order.currency,
    items: order.items,
    customerId: order.customerId,
    livemode: order.livemode,
    createdAt: order.createdAt.toISOString(),
  };
}
