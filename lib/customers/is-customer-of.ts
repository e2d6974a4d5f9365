// Whether a customer is one of a merchant's in a mode: a customer wallet payment method's owner, checked by the
// charge engine in the capture's transaction as a prepared statement (lib/db.ts sqlIn).
import { sqlIn, statement, type Db } from "../db";
import type { Scope } from "../scope";

// By the primary key alone, the scope checked on the row (lib/customers/get-customer.ts says why).
const CUSTOMER_SCOPE = statement("customer_scope", `SELECT merchant_id AS "merchantId", livemode FROM customers WHERE id = $1`);

export async function isCustomerOf(db: Db, scope: Scope, id: string): Promise<boolean> {
  const [row] = await sqlIn(db).rows<Scope>(CUSTOMER_SCOPE, [id]);
  return row !== undefined && row.merchantId === scope.merchantId && row.livemode === scope.livemode;
}
