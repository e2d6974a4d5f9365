import type { Db } from "../db";
import { filterIfGiven, listNewestFirstSql } from "../pagination";
import type { Scope } from "../scope";
import type { ListProductsInput } from "./schemas";
import { PRODUCTS, serializeProduct } from "./serialize";

/** In raw SQL, as the other lists: a later page's two statements cost far less CPU than Prisma's two queries. */
export async function listProducts(db: Db, scope: Scope, query: ListProductsInput) {
  return listNewestFirstSql(db, { ...PRODUCTS, scope, filters: filterIfGiven("active", query.active) }, query, serializeProduct);
}
