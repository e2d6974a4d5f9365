import { z } from "zod";
import { Currency, Email, ListQuery, Metadata } from "../validation/common";

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

export const FundTestWalletBody = z
  .object({
    amount: z.number().int("must be an integer in minor units").min(1).max(1_000_000_000),
    currency: Currency,
  })
  .strict();
export type FundTestWalletInput = z.output<typeof FundTestWalletBody>;
