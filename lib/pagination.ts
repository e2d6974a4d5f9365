// Cursor pagination shared by every list endpoint: newest first, `startingAfter=<id>`, `hasMore`.
import { ValidationError } from "./errors";

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
