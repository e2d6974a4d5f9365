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

interface CursorRow {
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

/** `column = value` when the list's optional filter is given (`column`: a column name, the caller's constant). */
export function filterIfGiven(column: string, value: string | undefined): Prisma.Sql[] {
  return value === undefined ? [] : [Prisma.sql`${Prisma.raw(column)} = ${value}`];
}

/**
 * listNewestFirst in raw SQL: one page of `from`'s rows in `scope` (merchant and mode), narrowed by the
 * `filters` conditions, newest first; the same round trips (one for `startingAfter`, one for the page).
 */
export async function listNewestFirstSql<Row, T>(
  db: Db,
  from: SqlTable & { scope: Scope; filters: Prisma.Sql[] },
  query: ListQuery,
  serialize: (row: Row) => T,
): Promise<ListPage<T>> {
  const table = Prisma.raw(from.table);
  const conditions = [Prisma.sql`merchant_id = ${from.scope.merchantId} AND livemode = ${from.scope.livemode}`, ...from.filters];
  if (query.startingAfter) {
    const [cursor] = await db.$queryRaw<CursorRow[]>`
      SELECT id, created_at AS "createdAt" FROM ${table}
       WHERE id = ${query.startingAfter} AND merchant_id = ${from.scope.merchantId} AND livemode = ${from.scope.livemode}`;
    requireCursor(cursor ?? null, query.startingAfter);
    conditions.push(Prisma.sql`(created_at, id) < (${cursor.createdAt}, ${cursor.id})`);
  }
  const rows = await db.$queryRaw<Row[]>`
    SELECT ${Prisma.raw(from.columns)} FROM ${table} WHERE ${Prisma.join(conditions, " AND ")}
     ORDER BY created_at DESC, id DESC LIMIT ${query.limit + 1}`;
  return toListPage(rows, query.limit, serialize);
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
