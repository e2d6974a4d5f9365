// The dashboard's search box: an object id goes straight to its page (when it is the scope's), anything
// else finds customers by email or name and orders by their checkout's description. Every lookup is
// scoped like the API: another merchant's id is simply not found.
import type { Db } from "../db";
import { Prisma } from "../generated/prisma/client";
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

/**
 * Whether text is long enough to search customers and orders by: 3 letters or digits in a row. The search's
 * `ILIKE '%text%'` is served by trigram indexes (pg_trgm: a trigram is 3 letters or digits), and text without one
 * has no trigram to look up: the index would be read whole, or the merchant's rows one by one, and 1 or 2
 * characters would match nearly every row anyway. Shorter text finds nothing (the page asks for more); an id,
 * however short its body, still goes straight to its page (pageOfId, before this).
 */
export function isSearchableText(text: string): boolean {
  return /[\p{L}\p{N}]{3}/u.test(text);
}

/** The newest rows of the merchant a search reads first, checking the text on each. */
const RECENT_ROWS = 5_000;

/**
 * The scope's newest `limit` rows of `table` (its own columns; `customers` or `checkouts`, the caller's constant)
 * whose `match` condition holds, newest first, in two bounded steps whatever the merchant's size
 * (the trigram indexes: prisma/migrations/20261129100000_dashboard_search_trigram and the three after it):
 *  1. unless `recentFirst` is false, the newest RECENT_ROWS rows of the scope along its (merchant, mode, created_at,
 *     id) index, each checked: a common term ("gmail", "espresso") ends here, without sorting its thousands of
 *     matches. A term the caller knows to be rare skips it: it would read 5,000 rows to find nothing;
 *  2. when they hold fewer than `limit` matches, every match of the scope through the indexes, then the newest
 *     `limit` of them: few by then (fewer than `limit` in the newest rows). MATERIALIZED keeps the planner from
 *     walking the created_at index instead, row by row to the merchant's oldest, which it would do for a term its
 *     statistics call common (common among other merchants' rows, say) but this merchant has in a few rows.
 */
async function newestMatching<R>(
  db: Db,
  scope: Scope,
  table: string,
  columns: string,
  match: Prisma.Sql,
  limit: number,
  recentFirst: boolean,
): Promise<R[]> {
  const from = Prisma.raw(table);
  const select = Prisma.raw(columns);
  const inScope = Prisma.sql`merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}`;
  if (recentFirst) {
    const recent = await db.$queryRaw<R[]>`
      SELECT ${select} FROM (
        SELECT * FROM ${from} WHERE ${inScope} ORDER BY created_at DESC, id DESC LIMIT ${RECENT_ROWS}
      ) AS ${from}
       WHERE ${match} ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
    if (recent.length === limit) return recent;
  }
  return db.$queryRaw<R[]>`
    WITH found AS MATERIALIZED (SELECT ${select}, created_at, id AS found_id FROM ${from} WHERE ${inScope} AND ${match})
    SELECT * FROM found ORDER BY created_at DESC, found_id DESC LIMIT ${limit}`;
}

/**
 * The text before the first @ of text typed around an address's @ (`ada@exam`, `buyer12@`), when it has 3 letters
 * or digits in a row to look up. Such a term names one person's address: rare among the customers, rarer in
 * descriptions.
 */
export function localPartTyped(text: string): string | null {
  const at = text.indexOf("@");
  return at > 0 && isSearchableText(text.slice(0, at)) ? text.slice(0, at) : null;
}

/**
 * Customers whose email or name contains the text. For text typed around an address's @, the email is not looked up
 * in its trigram index, whose cost is that of the term's commonest trigrams ("exa", "com": the merchant's every
 * address, 17 ms at 500,000 customers): an address containing `ada@exam` either has a local part (before its first
 * @) ending with "ada", which a btree on the reversed local part finds in a few pages, or has a second @, which few
 * have (prisma/migrations/20261205100000_dashboard_search_customers_email_local and the one after it). Both are then
 * checked against the whole text, as ILIKE would (it lowercases both sides in a UTF-8 database), written so the
 * planner does not bring the trigram index back for it.
 */
function customersMatching(text: string, pattern: string): Prisma.Sql {
  const local = localPartTyped(text);
  if (!local) return Prisma.sql`(email ILIKE ${pattern} OR name ILIKE ${pattern})`;
  const localEndsWith = Prisma.sql`reverse(lower(split_part(email, '@', 1))) LIKE ${endingWith(local)}`;
  const emailContains = Prisma.sql`lower(email) LIKE lower(${pattern})`;
  return Prisma.sql`((${localEndsWith} AND ${emailContains}) OR (email LIKE '%@%@%' AND ${emailContains}) OR name ILIKE ${pattern})`;
}

/** The LIKE pattern of a reversed, lowercased local part ending with `local` (made in SQL, as the index's key is). */
const endingWith = (local: string) =>
  Prisma.sql`replace(replace(replace(reverse(lower(${local})), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;

export async function searchText(db: Db, scope: Scope, text: string, limit = 20): Promise<SearchHit[]> {
  if (!isSearchableText(text)) return [];
  const pattern = contains(text);
  const recentFirst = localPartTyped(text) === null;
  const [customers, orders] = await Promise.all([
    newestMatching<{ id: string; name: string | null; email: string | null }>(
      db,
      scope,
      "customers",
      "id, name, email",
      customersMatching(text, pattern),
      limit,
      recentFirst,
    ),
    // An order by its checkout's description: the checkout names its order (every checkout has one), no join.
    newestMatching<{ orderId: string; description: string }>(
      db,
      scope,
      "checkouts",
      `order_id AS "orderId", description`,
      Prisma.sql`description ILIKE ${pattern}`,
      limit,
      recentFirst,
    ),
  ]);
  return [
    ...customers.map((c) => ({
      kind: "customer" as const,
      id: c.id,
      title: c.name ?? c.email ?? c.id,
      detail: c.name ? c.email : null,
      href: `/dashboard/customers/${c.id}`,
    })),
    ...orders.map((o) => ({
      kind: "order" as const,
      id: o.orderId,
      title: o.description,
      detail: null,
      href: `/dashboard/orders/${o.orderId}`,
    })),
  ];
}
