// Field schemas shared by several domains.
import { z } from "zod";

/** Stripe's metadata limits: up to 50 keys of at most 40 characters, string values of at most 500. */
export const Metadata = z
  .record(z.string().min(1).max(40), z.string().max(500))
  .refine((value) => Object.keys(value).length <= 50, { message: "at most 50 metadata keys" });

/** ISO 4217 code in any case, returned upper-case. */
export const Currency = z
  .string()
  .regex(/^[a-zA-Z]{3}$/, "must be a three-letter ISO 4217 currency code")
  .transform((value) => value.toUpperCase());

/** Money in minor units: a non-negative safe integer. */
export const MinorAmount = z.number().int("must be an integer in minor units").min(0).max(Number.MAX_SAFE_INTEGER);

/** A merchant's id as a caller names it (a paywall's payee, a token's only redeemer). */
export const MerchantId = z.string().regex(/^mer_[0-9A-Za-z]{10,64}$/, "must be a merchant id");

export const Email = z.string().max(254).email();

/** `?limit=&startingAfter=` of every list endpoint. */
export const ListQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(20),
    startingAfter: z.string().min(1).max(64).optional(),
  })
  .strict();
