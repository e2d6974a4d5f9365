// What a checkout or order sold, in one line for lists: its description, else its items
// ("Espresso beans × 2 and 1 more"). Pure; the checkout descriptions of a page of orders come in one query.
import type { Db } from "../db";
import type { Scope } from "../scope";

interface Item {
  name: string;
  quantity: number;
}

/** Items as stored on checkouts and orders (JSON); anything else reads as none. */
export function itemsOf(items: unknown): Item[] {
  return Array.isArray(items)
    ? items.filter((item): item is Item => typeof item?.name === "string" && typeof item?.quantity === "number")
    : [];
}

export function whatWasSold(description: string | null | undefined, items: unknown): string | null {
  if (description) return description;
  const list = itemsOf(items);
  if (list.length === 0) return null;
  const first = `${list[0].name}${list[0].quantity > 1 ? ` × ${list[0].quantity}` : ""}`;
  return list.length === 1 ? first : `${first} and ${list.length - 1} more`;
}

/** checkoutId -> its description, for the checkouts of the scope among `ids`. */
export async function checkoutDescriptions(db: Db, scope: Scope, ids: (string | null)[]): Promise<Map<string, string | null>> {
  const wanted = ids.filter((id): id is string => id !== null);
  if (wanted.length === 0) return new Map();
  const rows = await db.checkout.findMany({
    where: { id: { in: wanted }, merchantId: scope.merchantId, livemode: scope.livemode },
    select: { id: true, description: true },
  });
  return new Map(rows.map((row) => [row.id, row.description]));
}
