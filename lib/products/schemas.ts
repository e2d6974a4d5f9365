// Bodies and queries of /v1/products (docs/products.md).
import { z } from "zod";
import { MAX_AMOUNT } from "../money/limits";
import { Currency, ListQuery, Metadata } from "../validation/common";
import { listOf, StoredMetadata, Timestamp } from "../validation/objects";

/** A unit price in minor units; 0 is a free product (a checkout still has to total at least 1). */
const UnitAmount = z.number().int("must be an integer in minor units").min(0).max(MAX_AMOUNT);
const Name = z.string().trim().min(1, "must not be empty").max(256);
const Description = z.string().max(1000);
/** A physical good: ACP offers it the merchant's shipping rate instead of digital delivery (docs/acp.md). */
const RequiresShipping = z.boolean();

export const CreateProductBody = z
  .object({
    name: Name,
    description: Description.optional(),
    unitAmount: UnitAmount,
    currency: Currency,
    metadata: Metadata.optional(),
    active: z.boolean().optional(),
    requiresShipping: RequiresShipping.optional(),
  })
  .strict();
export type CreateProductInput = z.output<typeof CreateProductBody>;

/** Every field optional; `description: null` clears it. Orders already made keep the price they were sold at. */
export const UpdateProductBody = z
  .object({
    name: Name.optional(),
    description: Description.nullable().optional(),
    unitAmount: UnitAmount.optional(),
    currency: Currency.optional(),
    metadata: Metadata.optional(),
    active: z.boolean().optional(),
    requiresShipping: RequiresShipping.optional(),
  })
  .strict();
export type UpdateProductInput = z.output<typeof UpdateProductBody>;

export const ListProductsQuery = ListQuery.extend({
  active: z
    .enum(["true", "false"])
    .transform((value) => value === "true")
    .optional(),
}).strict();
export type ListProductsInput = z.output<typeof ListProductsQuery>;

// Responses.

export const ProductObject = z
  .object({
    id: z.string(),
    object: z.literal("product"),
    name: z.string(),
    description: z.string().nullable(),
    unitAmount: z.number().int(),
    currency: z.string(),
    active: z.boolean(),
    requiresShipping: z.boolean(),
    metadata: StoredMetadata,
    livemode: z.boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Product" });

export const ProductList = listOf(ProductObject, "ProductList");
