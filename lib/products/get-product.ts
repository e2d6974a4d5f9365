import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Product } from "../generated/prisma/client";
import type { Scope } from "../scope";
import { serializeProduct } from "./serialize";

/** The product row of this merchant and mode; another merchant's, or the other mode's, is 404. */
export async function findProduct(db: Db, scope: Scope, id: string): Promise<Product> {
  const product = await db.product.findFirst({ where: { id, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!product) throw new NotFoundError("product", id);
  return product;
}

export async function getProduct(db: Db, scope: Scope, id: string) {
  return serializeProduct(await findProduct(db, scope, id));
}
