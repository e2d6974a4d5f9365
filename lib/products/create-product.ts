import type { Db } from "../db";
import { createId } from "../ids";
import type { Scope } from "../scope";
import type { CreateProductInput } from "./schemas";
import { serializeProduct } from "./serialize";

export async function createProduct(tx: Db, scope: Scope, input: CreateProductInput) {
  const now = new Date();
  const product = await tx.product.create({
    data: {
      id: createId("product"),
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      name: input.name,
      description: input.description ?? null,
      unitAmount: input.unitAmount,
      currency: input.currency,
      metadata: input.metadata ?? {},
      active: input.active ?? true,
      requiresShipping: input.requiresShipping ?? false,
      createdAt: now,
      updatedAt: now,
    },
  });
  return serializeProduct(product);
}
