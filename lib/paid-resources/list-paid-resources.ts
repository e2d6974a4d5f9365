import type { Db } from "../db";
import type { PaidResource } from "../generated/prisma/client";
import { filterIfGiven, listNewestFirstSql } from "../pagination";
import type { Scope } from "../scope";
import { PAID_RESOURCES } from "./get-paid-resource";
import type { ListPaidResourcesInput } from "./schemas";
import { serializePaidResource } from "./serialize";

/** In raw SQL, as the other lists: a later page's two statements cost far less CPU than Prisma's two queries. */
export async function listPaidResources(db: Db, scope: Scope, query: ListPaidResourcesInput) {
  const from = { ...PAID_RESOURCES, scope, filters: filterIfGiven("active", query.active) };
  return listNewestFirstSql(db, from, query, (row: PaidResource) => serializePaidResource(row)); // never with a secret
}
