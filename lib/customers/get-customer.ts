import { callerStatement, runAsCaller, type CallerQuery, type Sql } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { CUSTOMER_COLUMNS, type CustomerRow } from "./customer-row";
import { serializeCustomer } from "./serialize";

// By the primary key alone, the scope checked on the row found: with `merchant_id = ... AND livemode = ...` beside
// `id = $1`, a prepared statement's generic plan made while the table was tiny may walk the (merchant, mode,
// created_at, id) index instead, reading every customer of the merchant (the OFFSET 0 keeps the planner from
// merging the conditions; docs/BENCHMARKS.md, "The authenticated read over 10 rounds").
// A caller statement (lib/db.ts): GET /v1/customers/:id runs it inside the API-key statement, one round trip.
const FIND_CUSTOMER = callerStatement<CustomerRow | { [K in keyof CustomerRow]: null }>("customer_find", 1, {
  select: `SELECT c.* FROM caller LEFT JOIN (SELECT ${CUSTOMER_COLUMNS} FROM customers WHERE id = $1 OFFSET 0) AS c
       ON c."merchantId" = caller.merchant_id AND c.livemode = caller.livemode`,
});

/** The read of customer `id`, before its caller is known (its row: NULLs when the caller has no such customer). */
export function customerQuery(id: string): CallerQuery<CustomerRow | { [K in keyof CustomerRow]: null }> {
  return { statement: FIND_CUSTOMER, values: [id] };
}

/** The customer of the read's row, or 404. */
export function customerOf(row: CustomerRow | { [K in keyof CustomerRow]: null }, id: string) {
  if (row.id === null) throw new NotFoundError("customer", id);
  return serializeCustomer(row as CustomerRow);
}

/** The customer for a scope already known (the dashboard, tests): the statement on its own. */
export async function getCustomer(db: Sql, scope: Scope, id: string) {
  return customerOf(await runAsCaller(db, customerQuery(id), { apiKeyId: null, ...scope }), id);
}
