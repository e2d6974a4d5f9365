import type { Db } from "../db";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import type { ListCustomersInput } from "./schemas";
import { serializeCustomer } from "./serialize";

export async function listCustomers(db: Db, scope: Scope, query: ListCustomersInput) {
  return listNewestFirst(db.customer, { scope: { merchantId: scope.merchantId, livemode: scope.livemode } }, query, serializeCustomer);
}
