import { z } from "zod";
import { ListQuery } from "../validation/common";
import { ORDER_STATUSES } from "./transitions";

export const ListOrdersQuery = ListQuery.extend({ status: z.enum(ORDER_STATUSES).optional() }).strict();
export type ListOrdersInput = z.output<typeof ListOrdersQuery>;
