// Building blocks of the response objects' schemas (lib/<domain>/schemas.ts). They describe what the
// serializers return; lib/openapi publishes them (a `.meta({ id })` names a component of the document).
import { z } from "zod";

/** An instant as the API writes it: ISO-8601 in UTC (`Date.toISOString()`). */
export const Timestamp = z.iso.datetime().meta({ id: "Timestamp" });

/** Metadata as stored: the request's Metadata schema admitted it, so string keys and string values. */
export const StoredMetadata = z.record(z.string(), z.string());
export type StoredMetadata = z.output<typeof StoredMetadata>;

/** `{ object: "list", data, hasMore }` of every list endpoint, named `<Item>List`. */
export function listOf<T extends z.ZodType>(item: T, id: string) {
  return z.object({ object: z.literal("list"), data: z.array(item), hasMore: z.boolean() }).meta({ id });
}

/** An amount per currency (balances, wallets). */
export const CurrencyAmount = z.object({ currency: z.string(), amount: z.number().int() });
