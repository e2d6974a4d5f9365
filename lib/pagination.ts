// Cursor pagination shared by every list endpoint: newest first, `startingAfter=<id>`, `hasMore`.
import { ValidationError } from "./errors";

export interface CursorRow {
  id: string;
  createdAt: Date;
}

export interface ListPage<T> {
  object: "list";
  data: T[];
  hasMore: boolean;
}

/** The Prisma `where` fragment for rows strictly after the cursor in (createdAt desc, id desc) order. */
export function afterCursor(cursor: CursorRow | null) {
  if (!cursor) return {};
  return { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] };
}

export const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];

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
