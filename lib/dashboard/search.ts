// The dashboard's search box: an object id goes straight to its page (when it is the scope's), anything
// else finds customers by email or name and orders by their checkout's description. Every lookup is
// scoped like the API: another merchant's id is simply not found.
import type { Db } from "../db";
import { ID_PREFIXES } from "../ids";
import type { Scope } from "../scope";

export interface SearchHit {
  kind: "customer" | "order";
  id: string;
  title: string;
  detail: string | null;
  href: string;
}

/** id prefix -> the table holding it and the dashboard page of one. */
const PAGES: Record<string, { table: string; page: string }> = {
  [ID_PREFIXES.order]: { table: "orders", page: "/dashboard/orders" },
  [ID_PREFIXES.paymentIntent]: { table: "payment_intents", page: "/dashboard/payments" },
  [ID_PREFIXES.checkout]: { table: "checkouts", page: "/dashboard/checkouts" },
  [ID_PREFIXES.customer]: { table: "customers", page: "/dashboard/customers" },
  [ID_PREFIXES.event]: { table: "events", page: "/dashboard/events" },
  [ID_PREFIXES.webhookEndpoint]: { table: "webhook_endpoints", page: "/dashboard/webhooks" },
  [ID_PREFIXES.meter]: { table: "meters", page: "/dashboard/meters" },
};

const ID_SHAPE = /^([a-z]+)_[0-9A-Za-z]{8,64}$/;

/** The page of the scope's object with this id, or null (unknown prefix, not found, another merchant's). */
export async function pageOfId(db: Db, scope: Scope, id: string): Promise<string | null> {
  const match = ID_SHAPE.exec(id);
  const target = match ? Object.hasOwn(PAGES, match[1]) && PAGES[match[1]] : null;
  if (!target) return null;
  // The table name comes from the fixed map above, never from the request.
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM ${target.table} WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
    id,
    scope.merchantId,
    scope.livemode,
  );
  return rows.length ? `${target.page}/${id}` : null;
}

/** LIKE pattern for text a person typed: % and _ are literal. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function searchText(db: Db, scope: Scope, text: string, limit = 20): Promise<SearchHit[]> {
  const pattern = contains(text);
  const [customers, orders] = await Promise.all([
    db.$queryRaw<{ id: string; name: string | null; email: string | null }[]>`
      SELECT id, name, email FROM customers
       WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} AND (email ILIKE ${pattern} OR name ILIKE ${pattern})
       ORDER BY created_at DESC LIMIT ${limit}`,
    db.$queryRaw<{ id: string; description: string; amount: number; currency: string }[]>`
      SELECT o.id, c.description, o.amount, o.currency FROM checkouts c JOIN orders o ON o.id = c.order_id
       WHERE c.merchant_id = ${scope.merchantId} AND c.livemode = ${scope.livemode} AND c.description ILIKE ${pattern}
       ORDER BY c.created_at DESC LIMIT ${limit}`,
  ]);
  return [
    ...customers.map((c) => ({
      kind: "customer" as const,
      id: c.id,
      title: c.name ?? c.email ?? c.id,
      detail: c.name ? c.email : null,
      href: `/dashboard/customers/${c.id}`,
    })),
    ...orders.map((o) => ({ kind: "order" as const, id: o.id, title: o.description, detail: null, href: `/dashboard/orders/${o.id}` })),
  ];
}
