import { z } from "zod";
import { ListQuery } from "../validation/common";
import { listOf, Timestamp } from "../validation/objects";
import { PAYMENT_SOURCES } from "../payment-sources";
import { ORDER_STATUSES } from "./transitions";

export const ListOrdersQuery = ListQuery.extend({
  status: z.enum(ORDER_STATUSES).optional(),
  source: z.enum(PAYMENT_SOURCES).optional(),
}).strict();
export type ListOrdersInput = z.output<typeof ListOrdersQuery>;

// Responses.

/** A line as sold (checkouts and orders): catalog lines carry their productId and the price copied in. */
export const SoldLineItem = z
  .object({ name: z.string(), quantity: z.number().int(), unitAmount: z.number().int(), productId: z.string().optional() })
  .meta({ id: "LineItem" });

export const OrderObject = z
  .object({
    id: z.string(),
    object: z.literal("order"),
    status: z.enum(ORDER_STATUSES),
    checkoutId: z.string().nullable(),
    paymentIntentId: z.string(),
    amount: z.number().int(),
    amountRefunded: z.number().int(),
    currency: z.string(),
    items: z.array(SoldLineItem),
    customerId: z.string().nullable(),
    /** The source of its PaymentIntent. */
    source: z.enum(PAYMENT_SOURCES),
    livemode: z.boolean(),
    createdAt: Timestamp,
  })
  .meta({ id: "Order" });

export const OrderList = listOf(OrderObject, "OrderList");
