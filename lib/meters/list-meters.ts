import type { Db } from "../db";
import { filterIfGiven, listNewestFirstSql } from "../pagination";
import type { Scope } from "../scope";
import { METERS } from "./meter-row";
import type { ListMetersInput } from "./schemas";
import { serializeMeter } from "./serialize";

/** In raw SQL, as the other lists: a later page's two statements cost far less CPU than Prisma's two queries. */
export async function listMeters(db: Db, scope: Scope, query: ListMetersInput) {
  const filters = [...filterIfGiven("status", query.status), ...filterIfGiven("customer_id", query.customerId)];
  return listNewestFirstSql(db, { ...METERS, scope, filters }, query, serializeMeter);
}
