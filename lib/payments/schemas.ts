import { z } from "zod";
import { ListQuery } from "../validation/common";
import { PAYMENT_SOURCES } from "./sources";
import { PAYMENT_INTENT_STATUSES } from "./transitions";

export const ListPaymentIntentsQuery = ListQuery.extend({
  status: z.enum(PAYMENT_INTENT_STATUSES).optional(),
  meterId: z.string().min(1).max(64).optional(),
  source: z.enum(PAYMENT_SOURCES).optional(),
  /** The sales of one hosted paid resource (xr_). */
  paidResourceId: z.string().min(1).max(64).optional(),
  /** The payments of one customer (cus_), as Stripe's `customer` filter. */
  customerId: z.string().min(1).max(64).optional(),
}).strict();
export type ListPaymentIntentsInput = z.output<typeof ListPaymentIntentsQuery>;
