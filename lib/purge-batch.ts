// The tick's bounded clean-ups: each call deletes at most one batch of a table's dead rows, so a backlog drains over a
// few ticks instead of in one long delete that holds its locks and bloats the table at once.
import type { Db } from "./db";
import { Prisma } from "./generated/prisma/client";

/**
 * Deletes at most `limit` rows of `table` where `condition` holds, the oldest first along `orderBy` (an indexed
 * column) when given, else the first the scan meets; how many it deleted. The rows are deleted by their address
 * (`ctid = ANY(ARRAY(...))`, a TID scan): `key IN (subselect)` is planned, for a batch this size, as a hash join over
 * a scan of the whole table. The DELETE checks `condition` again on each row, so one changed since the sub-select
 * read it (an attempt counted, a lease renewed) is kept. `table` and `orderBy` are the caller's constants.
 */
export function purgeBatch(db: Db, table: string, condition: Prisma.Sql, orderBy: string | null, limit: number): Promise<number> {
  const from = Prisma.raw(table);
  const order = Prisma.raw(orderBy ? `ORDER BY ${orderBy}` : "");
  return db.$executeRaw`
    DELETE FROM ${from} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${from} WHERE ${condition} ${order} LIMIT ${limit}))
       AND ${condition}`;
}
