import type { Db } from "../db";
import { NotFoundError } from "../errors";
import { findInScope } from "../pagination";
import type { Scope } from "../scope";
import { CHECKOUTS_NOW } from "./seen-now";
import { serializeCheckout, type CheckoutFields } from "./serialize";

/** One checkout, its status as seen now (an overdue open one reads as expired; seen-now.ts). Writes nothing. */
export async function getCheckout(db: Db, scope: Scope, id: string) {
  const checkout = await findInScope<CheckoutFields>(db, CHECKOUTS_NOW, scope, id);
  if (!checkout) throw new NotFoundError("checkout", id);
  return serializeCheckout(checkout);
}
