import type { Db } from "../db";
import { listNewestFirstSql } from "../pagination";
import type { Scope } from "../scope";
import type { ListCheckoutsInput } from "./schemas";
import { checkoutStatusIs, CHECKOUTS_NOW } from "./seen-now";
import { serializeCheckout, type CheckoutFields } from "./serialize";

/** Checkouts newest first, their status (and the status filter) as seen now (seen-now.ts). Writes nothing. */
export async function listCheckouts(db: Db, scope: Scope, query: ListCheckoutsInput) {
  return listNewestFirstSql(db, { ...CHECKOUTS_NOW, scope, filters: checkoutStatusIs(query.status) }, query, (row: CheckoutFields) =>
    serializeCheckout(row),
  );
}
