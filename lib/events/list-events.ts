import type { Db } from "../db";
import { filterIfGiven, listNewestFirstSql } from "../pagination";
import type { Scope } from "../scope";
import type { ListEventsInput } from "./schemas";
import { EVENTS, serializeEvent } from "./serialize";

/**
 * In raw SQL, as the orders and PaymentIntents lists: two Prisma queries (the cursor, the page) cost a later page
 * twice the CPU of these two statements, and Prisma's `OR` form of the keyset is a filter on the index scan where
 * `(created_at, id) < (...)` bounds it.
 */
export async function listEvents(db: Db, scope: Scope, query: ListEventsInput) {
  return listNewestFirstSql(db, { ...EVENTS, scope, filters: filterIfGiven("type", query.type) }, query, serializeEvent);
}
