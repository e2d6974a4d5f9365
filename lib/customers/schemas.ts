import { z } from "zod";
import { Email, ListQuery, Metadata } from "../validation/common";

export const CreateCustomerBody = z
  .object({
    name: z.string().min(1).max(256).optional(),
    email: Email.optional(),
    metadata: Metadata.optional(),
  })
  .strict();
export type CreateCustomerInput = z.output<typeof CreateCustomerBody>;

export const ListCustomersQuery = ListQuery;
export type ListCustomersInput = z.output<typeof ListCustomersQuery>;
