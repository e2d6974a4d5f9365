import { SqlWrite, statement } from "../db";
import { createId } from "../ids";
import type { Scope } from "../scope";
import type { CreateCustomerInput } from "./schemas";
import { serializeCustomer } from "./serialize";

// Raw SQL, planned as one write: POST /v1/customers is the pipeline's benchmark route (docs/BENCHMARKS.md),
// where the insert shares its statement with the stored idempotent response.
const INSERT_CUSTOMER = statement(
  "customer_insert",
  "INSERT INTO customers (id, merchant_id, livemode, name, email, metadata, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
);

/** The new customer, with its id and creation time chosen here, and the insert that records it. */
export function createCustomer(scope: Scope, input: CreateCustomerInput) {
  const customer = {
    id: createId("customer"),
    merchantId: scope.merchantId,
    livemode: scope.livemode,
    name: input.name ?? null,
    email: input.email ?? null,
    metadata: input.metadata ?? {},
    createdAt: new Date(),
  };
  const values = [
    customer.id,
    customer.merchantId,
    customer.livemode,
    customer.name,
    customer.email,
    JSON.stringify(customer.metadata),
    customer.createdAt.toISOString(),
  ];
  return new SqlWrite(INSERT_CUSTOMER, values, serializeCustomer(customer));
}
