import type { Db } from "../db";
import { filterIfGiven, listNewestFirstSql } from "../pagination";
import type { Scope } from "../scope";
import type { ListDisputesInput } from "./schemas";
import { DISPUTES, serializeDispute } from "./serialize";

/** In raw SQL, as the other lists: a later page's two statements cost far less CPU than Prisma's two queries. */
export async function listDisputes(db: Db, scope: Scope, query: ListDisputesInput) {
  const filters = [...filterIfGiven("payment_intent_id", query.paymentIntentId), ...filterIfGiven("status", query.status)];
  return listNewestFirstSql(db, { ...DISPUTES, scope, filters }, query, serializeDispute);
}
