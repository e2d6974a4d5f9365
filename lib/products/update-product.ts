// POST /v1/products/:id updates what is given; DELETE archives (active: false, as docs/products.md says).
// Checkouts and orders already made keep the name and price they were opened with (their items are copies).
import type { Db } from "../db";
import type { Scope } from "../scope";
import { findProduct } from "./get-product";
import type { UpdateProductInput } from "./schemas";
import { serializeProduct } from "./serialize";

export async function updateProduct(tx: Db, scope: Scope, id: string, input: UpdateProductInput) {
  await findProduct(tx, scope, id); // 404 for another merchant's or mode's product
  const product = await tx.product.update({
    where: { id },
    data: {
      // A field left out (undefined) is left as it is.
      name: input.name,
      description: input.description,
      unitAmount: input.unitAmount,
      currency: input.currency,
      metadata: input.metadata,
      active: input.active,
      requiresShipping: input.requiresShipping,
      updatedAt: new Date(),
    },
  });
  return serializeProduct(product);
}

/** Archiving twice is the same archived product (200 both times). */
export function archiveProduct(tx: Db, scope: Scope, id: string) {
  return updateProduct(tx, scope, id, { active: false });
}
