import type { z } from "zod";
import type { Product } from "../generated/prisma/client";
import type { StoredMetadata } from "../validation/objects";
import type { ProductObject as ProductSchema } from "./schemas";

export function serializeProduct(product: Product) {
  return {
    id: product.id,
    object: "product" as const,
    name: product.name,
    description: product.description,
    unitAmount: product.unitAmount,
    currency: product.currency,
    active: product.active,
    requiresShipping: product.requiresShipping,
    metadata: product.metadata as StoredMetadata,
    livemode: product.livemode,
    createdAt: product.createdAt.toISOString(),
    updatedAt: product.updatedAt.toISOString(),
  } satisfies z.input<typeof ProductSchema>;
}
