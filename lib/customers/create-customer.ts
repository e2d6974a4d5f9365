import { callerStatement, type CallerWrite } from "../db";
import { createId } from "../ids";
import type { CreateCustomerInput } from "./schemas";
import { serializeCustomer } from "./serialize";

// POST /v1/customers is the pipeline's benchmark route (docs/BENCHMARKS.md): its insert is a caller statement
// (lib/db.ts), run inside the API-key statement beside the idempotency claim, stored with its answer: one round trip.
const INSERT_CUSTOMER = callerStatement<{ written: number }>("customer_insert", 5, {
  ctes: `new_customer AS (INSERT INTO customers (id, merchant_id, livemode, name, email, metadata, created_at)
           SELECT $1::text, caller.merchant_id, caller.livemode, $2::text, $3::text, $4::jsonb, $5::timestamptz FROM caller
           RETURNING 1)`,
  select: "SELECT count(*)::int AS written FROM new_customer",
});

/** The new customer, with its id and creation time chosen here: its insert for the caller, and its answer. */
export function customerCreation(input: CreateCustomerInput): CallerWrite {
  const customer = {
    id: createId("customer"),
    name: input.name ?? null,
    email: input.email ?? null,
    metadata: input.metadata ?? {},
    createdAt: new Date(),
  };
  const values = [customer.id, customer.name, customer.email, JSON.stringify(customer.metadata), customer.createdAt.toISOString()];
  return { query: { statement: INSERT_CUSTOMER, values }, answer: (livemode) => serializeCustomer({ ...customer, livemode }) };
}
