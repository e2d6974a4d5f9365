// The merchant's API for its ACP pricing settings (docs/acp.md "Pricing settings"): `GET/POST
// /v1/acp/commerce_settings`, one object per mode. The quote reads them (lib/acp/commerce-settings.ts).
// POST sets what it is given: `shippingRate` (null: no shipping offered), `taxRates` (the whole map, replaced).
import { z } from "zod";
import { COUNTRY_CODES } from "../countries";
import type { Db } from "../db";
import { MAX_AMOUNT } from "../money/limits";
import type { Scope } from "../scope";
import { Timestamp } from "../validation/objects";

/** A rate per assigned country; a basis point is 0.01% (825 = 8.25%), 10000 is 100%. */
const TaxRates = z.record(
  z
    .string()
    .regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 alpha-2 country code, upper case (US, DE)")
    .refine((code) => COUNTRY_CODES.has(code), "is not an assigned ISO 3166-1 alpha-2 country code"),
  z.number().int("must be an integer number of basis points").min(0).max(10_000),
);

export const UpdateCommerceSettingsBody = z
  .object({
    shippingRate: z.number().int("must be an integer in minor units").min(0).max(MAX_AMOUNT).nullable().optional(),
    taxRates: TaxRates.optional(),
  })
  .strict();

export const CommerceSettingsObject = z
  .object({
    object: z.literal("acp_commerce_settings"),
    shippingRate: z.number().int().nullable(),
    taxRates: z.record(z.string(), z.number().int()),
    livemode: z.boolean(),
    updatedAt: Timestamp.nullable(),
  })
  .meta({ id: "AcpCommerceSettings" });

type Row = { shippingRate: number | null; taxRates: unknown; updatedAt: Date } | null;

function serialize(row: Row, scope: Scope): z.output<typeof CommerceSettingsObject> {
  return {
    object: "acp_commerce_settings",
    shippingRate: row?.shippingRate ?? null,
    taxRates: (row?.taxRates as Record<string, number> | undefined) ?? {},
    livemode: scope.livemode,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

const key = (scope: Scope) => ({ merchantId_livemode: { merchantId: scope.merchantId, livemode: scope.livemode } });

/** Never set: no shipping, no tax (`updatedAt` null). */
export async function getCommerceSettings(db: Db, scope: Scope) {
  return serialize(await db.acpCommerceSettings.findUnique({ where: key(scope) }), scope);
}

/** One upsert (INSERT ... ON CONFLICT): two concurrent first writes make one row, the later one winning. */
export async function updateCommerceSettings(tx: Db, scope: Scope, input: z.output<typeof UpdateCommerceSettingsBody>) {
  const given = { shippingRate: input.shippingRate, taxRates: input.taxRates, updatedAt: new Date() };
  const row = await tx.acpCommerceSettings.upsert({
    where: key(scope),
    create: { merchantId: scope.merchantId, livemode: scope.livemode, ...given },
    update: given,
  });
  return serialize(row, scope);
}
