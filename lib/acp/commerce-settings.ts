// What a merchant set for ACP pricing in a mode (prisma model AcpCommerceSettings, AcpDiscountCode): one flat
// shipping rate for carts with physical goods, tax rates per country in basis points, and discount codes.
// No row: no shipping offered, no tax, no codes.
import type { Db } from "../db";
import type { AcpDiscountCode } from "../generated/prisma/client";

export interface CommerceSettings {
  /** Minor units of the cart's currency; null: this merchant does not ship. */
  shippingRate: number | null;
  /** ISO-3166 alpha-2 (upper case) -> basis points (825 = 8.25%). */
  taxRates: Record<string, number>;
}

export async function loadCommerceSettings(db: Db, scope: { merchantId: string; livemode: boolean }): Promise<CommerceSettings> {
  const row = await db.acpCommerceSettings.findUnique({
    where: { merchantId_livemode: { merchantId: scope.merchantId, livemode: scope.livemode } },
  });
  return { shippingRate: row?.shippingRate ?? null, taxRates: (row?.taxRates as Record<string, number> | undefined) ?? {} };
}

/** The active codes among `codes`, by code. */
export async function findDiscountCodes(
  db: Db,
  scope: { merchantId: string; livemode: boolean },
  codes: string[],
): Promise<Map<string, AcpDiscountCode>> {
  if (!codes.length) return new Map();
  const rows = await db.acpDiscountCode.findMany({
    where: { merchantId: scope.merchantId, livemode: scope.livemode, code: { in: codes }, active: true },
  });
  return new Map(rows.map((row) => [row.code, row]));
}
