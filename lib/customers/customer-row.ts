// Customer rows read with raw SQL, in the shape of Prisma's Customer model (so serializeCustomer takes both).
import type { Customer } from "../generated/prisma/client";
import type { SqlTable } from "../pagination";

export type CustomerRow = Customer;

/** The columns the API object shows (a raw-SQL read selects just these: CUSTOMERS). */
export type CustomerFields = Omit<Customer, "merchantId">;

/** The customers table as the API shows it, for the raw-SQL list of lib/pagination.ts. */
export const CUSTOMERS: SqlTable = { table: "customers", columns: `id, livemode, name, email, metadata, created_at AS "createdAt"` };

/** A whole CustomerRow: the API's columns and the merchant (which get-customer.ts checks the caller against). */
export const CUSTOMER_COLUMNS = `${CUSTOMERS.columns}, merchant_id AS "merchantId"`;
