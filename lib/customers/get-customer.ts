import { statement, type Sql } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { CUSTOMER_COLUMNS, type CustomerRow } from "./customer-row";
import { serializeCustomer } from "./serialize";

// By the primary key alone, the scope checked on the row found: with `merchant_id = $2 AND livemode = $3` beside
// `id = $1`, a prepared statement's generic plan made while the table was tiny may walk the (merchant, mode,
// created_at, id) index instead, reading every customer of the merchant (the OFFSET 0 keeps the planner from
// merging the conditions; docs/BENCHMARKS.md, "The authenticated read over 10 rounds").
const FIND_CUSTOMER = statement(
  "customer_find",
  `SELECT ${CUSTOMER_COLUMNS} FROM (SELECT * FROM customers WHERE id = $1 OFFSET 0) AS customers WHERE merchant_id = $2 AND livemode = $3`,
);

export async function getCustomer(db: Sql, scope: Scope, id: string) {
  const [customer] = await db.rows<CustomerRow>(FIND_CUSTOMER, [id, scope.merchantId, scope.livemode]);
  if (!customer) throw new NotFoundError("customer", id);
  return serializeCustomer(customer);
}
