import { statement, type Sql } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { CUSTOMER_COLUMNS, type CustomerRow } from "./customer-row";
import { serializeCustomer } from "./serialize";

const FIND_CUSTOMER = statement(
  "customer_find",
  `SELECT ${CUSTOMER_COLUMNS} FROM customers WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
);

export async function getCustomer(db: Sql, scope: Scope, id: string) {
  const [customer] = await db.rows<CustomerRow>(FIND_CUSTOMER, [id, scope.merchantId, scope.livemode]);
  if (!customer) throw new NotFoundError("customer", id);
  return serializeCustomer(customer);
}
