import type { Db } from "../db";
import { NotFoundError } from "../errors";
import { findInScope } from "../pagination";
import type { Scope } from "../scope";
import { PRODUCTS, serializeProduct, type ProductFields } from "./serialize";

/** The product of this merchant and mode; another merchant's, or the other mode's, is 404. */
export async function findProduct(db: Db, scope: Scope, id: string): Promise<ProductFields> {
  const product = await findInScope<ProductFields>(db, PRODUCTS, scope, id);
  if (!product) throw new NotFoundError("product", id);
  return product;
}

export async function getProduct(db: Db, scope: Scope, id: string) {
  return serializeProduct(await findProduct(db, scope, id));
}
