import type { Db } from "../db";
import { listNewestFirstSql } from "../pagination";
import type { Scope } from "../scope";
import { CUSTOMERS } from "./customer-row";
import type { ListCustomersInput } from "./schemas";
import { serializeCustomer } from "./serialize";

/** In raw SQL, as the other lists: a later page's two statements cost far less CPU than Prisma's two queries. */
export async function listCustomers(db: Db, scope: Scope, query: ListCustomersInput) {
  return listNewestFirstSql(db, { ...CUSTOMERS, scope, filters: [] }, query, serializeCustomer);
}
