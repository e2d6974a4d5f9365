import type { Product } from "../generated/prisma/client";

export function serializeProduct(product: Product) {
  return {
    id: product.id,
    object: "product" as const,
    name: product.name,
    description: product.description,
    unitAmount: product.unitAmount,
    currency: product.currency,
    active: product.active,
    metadata: product.metadata,
    livemode: product.livemode,
    createdAt: product.createdAt.toISOString(),
    updatedAt: product.updatedAt.toISOString(),
  };
}
