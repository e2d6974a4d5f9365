// Customer rows read with raw SQL, in the shape of Prisma's Customer model (so serializeCustomer takes both).
import type { Customer } from "../generated/prisma/client";

export type CustomerRow = Customer;

export const CUSTOMER_COLUMNS = `id, merchant_id AS "merchantId", livemode, name, email, metadata, created_at AS "createdAt"`;
