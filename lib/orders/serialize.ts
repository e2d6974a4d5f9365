import type { z } from "zod";
import type { Order } from "../generated/prisma/client";
import type { PaymentSource } from "../payment-sources";
import type { OrderObject, SoldLineItem } from "./schemas";
import type { OrderStatus } from "./transitions";

/** The columns the API object shows (a raw-SQL read selects just these: orderColumns). */
export type OrderFields = Pick<
  Order,
  | "id"
  | "status"
  | "checkoutId"
  | "paymentIntentId"
  | "amount"
  | "amountRefunded"
  | "currency"
  | "items"
  | "customerId"
  | "source"
  | "livemode"
  | "createdAt"
>;

/** Raw SQL select list (FROM orders) giving an OrderFields row, its status computed by the SQL `status`. */
export const orderColumns = (
  status: string,
) => `id, ${status} AS status, checkout_id AS "checkoutId", payment_intent_id AS "paymentIntentId",
  amount, amount_refunded AS "amountRefunded", currency, items, customer_id AS "customerId", source, livemode, created_at AS "createdAt"`;

export function serializeOrder(order: OrderFields) {
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
    /** The source of its PaymentIntent (lib/payment-sources.ts). */
    source: order.source as PaymentSource,
    livemode: order.livemode,
    createdAt: order.createdAt.toISOString(),
  } satisfies z.input<typeof OrderObject>;
}
