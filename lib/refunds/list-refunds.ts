import type { Db } from "../db";
import { filterIfGiven, listNewestFirstSql } from "../pagination";
import type { Scope } from "../scope";
import type { ListRefundsInput } from "./schemas";
import { REFUNDS, serializeRefund } from "./serialize";

/** In raw SQL, as the other lists: a later page's two statements cost far less CPU than Prisma's two queries. */
export async function listRefunds(db: Db, scope: Scope, query: ListRefundsInput) {
  const filters = filterIfGiven("payment_intent_id", query.paymentIntentId);
  return listNewestFirstSql(db, { ...REFUNDS, scope, filters }, query, serializeRefund);
}
