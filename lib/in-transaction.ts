// Runs work in a transaction: the caller's when it already is one, a new one when given the pool (the
// api() wrapper hands read routes the pool). Lets a read path make a small write, like expiring an
// overdue checkout it is about to show.
import { getDb, transaction, type Db } from "./db";

export function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  if (db === (getDb() as unknown as Db)) return transaction(work);
  return work(db);
}
