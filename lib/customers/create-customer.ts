import { statement, type Sql } from "../db";
import { createId } from "../ids";
import type { Scope } from "../scope";
import { CUSTOMER_COLUMNS, type CustomerRow } from "./customer-row";
import type { CreateCustomerInput } from "./schemas";
import { serializeCustomer } from "./serialize";

// Raw SQL: POST /v1/customers is the pipeline's benchmark route (docs/BENCHMARKS.md).
const INSERT_CUSTOMER = statement(
  "customer_insert",
  `INSERT INTO customers (id, merchant_id, livemode, name, email, metadata) VALUES ($1, $2, $3, $4, $5, $6)
   RETURNING ${CUSTOMER_COLUMNS}`,
);

export async function createCustomer(tx: Sql, scope: Scope, input: CreateCustomerInput) {
  const [customer] = await tx.rows<CustomerRow>(INSERT_CUSTOMER, [
    createId("customer"),
    scope.merchantId,
    scope.livemode,
    input.name ?? null,
    input.email ?? null,
    JSON.stringify(input.metadata ?? {}),
  ]);
  return serializeCustomer(customer);
}
