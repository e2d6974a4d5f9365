import type { z } from "zod";
import type { Product } from "../generated/prisma/client";
import type { SqlTable } from "../pagination";
import type { StoredMetadata } from "../validation/objects";
import type { ProductObject as ProductSchema } from "./schemas";

/** The columns the API object shows (a raw-SQL read selects just these: PRODUCTS). */
export type ProductFields = Omit<Product, "merchantId">;

/** The products table as the API shows it, for the raw-SQL reads of lib/pagination.ts (the list, a product by id). */
export const PRODUCTS: SqlTable = {
  table: "products",
  columns: `id, name, description, unit_amount AS "unitAmount", currency, active, requires_shipping AS "requiresShipping",
    metadata, livemode, created_at AS "createdAt", updated_at AS "updatedAt"`,
};

export function serializeProduct(product: ProductFields) {
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
