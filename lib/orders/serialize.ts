import type { z } from "zod";
import type { Order } from "../generated/prisma/client";
import type { PaymentSource } from "../payments/sources";
import type { OrderObject, SoldLineItem } from "./schemas";
import type { OrderStatus } from "./transitions";

export function serializeOrder(order: Order) {
  return {
    id: order.id,
    object: "order" as const,
    status: order.status as OrderStatus,
    checkoutId: order.checkoutId,
    paymentIntentId: order.paymentIntentId,
    amount: order.amount,
    amountRefunded: order.amountRefunded,
    currency: order.currency,
    items: order.items as z.output<typeof SoldLineItem>[],
    customerId: order.customerId,
    /** The source of its PaymentIntent (lib/payments/sources.ts). */
    source: order.source as PaymentSource,
    livemode: order.livemode,
    createdAt: order.createdAt.toISOString(),
  } satisfies z.input<typeof OrderObject>;
}
