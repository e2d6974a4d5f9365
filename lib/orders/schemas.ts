import { z } from "zod";
import { ListQuery } from "../validation/common";
import { PAYMENT_SOURCES } from "../payments/sources";
import { ORDER_STATUSES } from "./transitions";

export const ListOrdersQuery = ListQuery.extend({
  status: z.enum(ORDER_STATUSES).optional(),
  source: z.enum(PAYMENT_SOURCES).optional(),
}).strict();
export type ListOrdersInput = z.output<typeof ListOrdersQuery>;
