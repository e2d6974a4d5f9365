// Cursor pagination shared by every list endpoint: newest first, `startingAfter=<id>`, `hasMore`.
import type { Db } from "./db";
import { ValidationError } from "./errors";
import { Prisma } from "./generated/prisma/client";
import type { Scope } from "./scope";

export interface ListPage<T> {
  object: "list";
  data: T[];
  hasMore: boolean;
}

export interface ListQuery {
  startingAfter?: string;
  limit: number;
}

/** Where a newest-first list stands: a row's `createdAt` and `id` (its key in the list's order). */
export interface CursorRow {
  id: string;
  createdAt: Date;
}

export const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/** A Prisma model delegate (`db.refund`) whose rows have `id` and `createdAt`. */
interface ListableModel<Row = unknown> {
  findFirst(args: { where: object; select: { id: true; createdAt: true } }): PromiseLike<CursorRow | null>;
  findMany(args: { where: object; orderBy: typeof NEWEST_FIRST; take: number }): PromiseLike<Row[]>;
}
type WhereOf<M extends ListableModel> = NonNullable<NonNullable<Parameters<M["findMany"]>[0]>["where"]>;
type RowOf<M extends ListableModel> = M extends ListableModel<infer Row> ? Row : never;

/**
 * One page of `model`'s rows in `scope` (what the caller may see), narrowed by `filters`, newest first.
 * `startingAfter` must be a row of the scope (it need not match the filters); one round trip for it, one
 * for the page (`limit + 1` rows: the extra one only tells whether there is more).
 */
export async function listNewestFirst<M extends ListableModel, T>(
  model: M,
  { scope, filters = {} }: { scope: WhereOf<M>; filters?: WhereOf<M> },
  query: ListQuery,
  serialize: (row: RowOf<M>) => T,
): Promise<ListPage<T>> {
  const cursor = query.startingAfter
    ? requireCursor(
        await model.findFirst({ where: { ...scope, id: query.startingAfter }, select: { id: true, createdAt: true } }),
        query.startingAfter,
      )
    : null;
  const after = cursor ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] } : {};
  const rows = (await model.findMany({
    where: { ...scope, ...filters, ...after },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  })) as RowOf<M>[];
  return toListPage(rows, query.limit, serialize);
}

/** A table read in raw SQL, for rows with columns computed in SQL: constants of the caller, never input. */
export interface SqlTable {
  table: string;
  columns: string;
}

/** Where a page of a newest-first list starts: after a row (its key), at a row, or (null) at the newest. */
export type ListPosition = { after: CursorRow } | { at: CursorRow } | null;

/** A list's table in `scope` (merchant and mode) narrowed by `filters` (conditions of the caller, never input). */
type ScopedSqlTable = SqlTable & { scope: Scope; filters: Prisma.Sql[] };

/** `column = value` when the list's optional filter is given (`column`: a column name, the caller's constant). */
export function filterIfGiven(column: string, value: string | boolean | undefined): Prisma.Sql[] {
  return value === undefined ? [] : [Prisma.sql`${Prisma.raw(column)} = ${value}`];
}

/**
 * listNewestFirst in raw SQL: one page of `from`'s rows in `scope` (merchant and mode), narrowed by the
 * `filters` conditions, newest first; the same round trips (one for `startingAfter`, one for the page).
 */
export async function listNewestFirstSql<Row, T>(
  db: Db,
  from: ScopedSqlTable,
  query: ListQuery,
  serialize: (row: Row) => T,
): Promise<ListPage<T>> {
  let after: ListPosition = null;
  if (query.startingAfter) {
    const [cursor] = await db.$queryRaw<CursorRow[]>`
      SELECT id, created_at AS "createdAt" FROM ${Prisma.raw(from.table)}
       WHERE id = ${query.startingAfter} AND merchant_id = ${from.scope.merchantId} AND livemode = ${from.scope.livemode}`;
    after = { after: requireCursor(cursor ?? null, query.startingAfter) };
  }
  return toListPage(await rowsNewestFirstSql<Row>(db, from, after, query.limit + 1), query.limit, serialize);
}

/** The list's WHERE: its scope, its filters, and its rows from `position` on in (created_at, id) order. */
function listConditions(from: ScopedSqlTable, position: ListPosition): Prisma.Sql {
  const conditions = [Prisma.sql`merchant_id = ${from.scope.merchantId} AND livemode = ${from.scope.livemode}`, ...from.filters];
  if (position && "after" in position) conditions.push(Prisma.sql`(created_at, id) < (${position.after.createdAt}, ${position.after.id})`);
  if (position && "at" in position) conditions.push(Prisma.sql`(created_at, id) <= (${position.at.createdAt}, ${position.at.id})`);
  return Prisma.join(conditions, " AND ");
}

/**
 * At most `take` of `from`'s rows in `scope`, narrowed by `filters`, newest first, from `position` on: one
 * statement along the scope's (merchant, mode, created_at, id) index. A reader that walks a whole list (the
 * dashboard's CSV export) passes the last row's key on, with no lookup of it.
 */
export function rowsNewestFirstSql<Row>(db: Db, from: ScopedSqlTable, position: ListPosition, take: number): Promise<Row[]> {
  return db.$queryRaw<Row[]>`
    SELECT ${Prisma.raw(from.columns)} FROM ${Prisma.raw(from.table)} WHERE ${listConditions(from, position)}
     ORDER BY created_at DESC, id DESC LIMIT ${take}`;
}

/**
 * How many rows the list has, counting at most `atMost` (a walk along the same index that stops at the
 * `atMost`th match: a huge list costs no more than its newest `atMost` rows, an index-only scan without filters),
 * and its newest row's key (null when empty): a walk that starts `at` it reads the very rows counted, whatever is
 * added meanwhile. One statement.
 */
export async function countNewestFirstSql(
  db: Db,
  from: ScopedSqlTable,
  atMost: number,
): Promise<{ rows: number; newest: CursorRow | null }> {
  const table = Prisma.raw(from.table);
  const [newest] = await db.$queryRaw<(CursorRow & { rows: number })[]>`
    SELECT n.id, n.created_at AS "createdAt",
           (SELECT count(*)::int FROM (
              SELECT 1 FROM ${table} WHERE ${listConditions(from, null)} AND (created_at, id) <= (n.created_at, n.id)
               LIMIT ${atMost}) counted) AS rows
      FROM (SELECT created_at, id FROM ${table} WHERE ${listConditions(from, null)} ORDER BY created_at DESC, id DESC LIMIT 1) n`;
  return newest ? { rows: newest.rows, newest: { id: newest.id, createdAt: newest.createdAt } } : { rows: 0, newest: null };
}

/** One row of `from` by id in the scope (merchant and mode), or null. */
export async function findInScope<Row>(db: Db, from: SqlTable, scope: Scope, id: string): Promise<Row | null> {
  const [row] = await db.$queryRaw<Row[]>`
    SELECT ${Prisma.raw(from.columns)} FROM ${Prisma.raw(from.table)}
     WHERE id = ${id} AND merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode}`;
  return row ?? null;
}

export function requireCursor<T>(row: T | null, startingAfter: string): T {
  if (!row)
    throw new ValidationError(`No such object for startingAfter: '${startingAfter}'`, [
      { path: "startingAfter", message: "not an object of this list" },
    ]);
  return row;
}

/** Rows were fetched with `take: limit + 1`; the extra row only tells whether there is more. */
export function toListPage<R, T>(rows: R[], limit: number, serialize: (row: R) => T): ListPage<T> {
  return { object: "list", data: rows.slice(0, limit).map(serialize), hasMore: rows.length > limit };
}
