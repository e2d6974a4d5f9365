import { z } from "zod";
import { Currency, Email, ListQuery, Metadata } from "../validation/common";
import { CurrencyAmount, listOf, StoredMetadata, Timestamp } from "../validation/objects";

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

// Responses (docs/api-reference.md "Customers").

export const CustomerObject = z
  .object({
    id: z.string(),
    object: z.literal("customer"),
    name: z.string().nullable(),
    email: z.string().nullable(),
    metadata: StoredMetadata,
    livemode: z.boolean(),
    createdAt: Timestamp,
  })
  .meta({ id: "Customer" });

export const CustomerList = listOf(CustomerObject, "CustomerList");

/** A customer's test wallet after POST /v1/customers/:id/fund. */
export const TestWalletObject = z
  .object({ object: z.literal("test_wallet"), customerId: z.string(), livemode: z.literal(false), balances: z.array(CurrencyAmount) })
  .meta({ id: "TestWallet" });
