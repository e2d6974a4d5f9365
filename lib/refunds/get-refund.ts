import type { Db } from "../db";
import { NotFoundError } from "../errors";
import { findInScope } from "../pagination";
import type { Scope } from "../scope";
import { REFUNDS, serializeRefund, type RefundFields } from "./serialize";

export async function getRefund(db: Db, scope: Scope, id: string) {
  const refund = await findInScope<RefundFields>(db, REFUNDS, scope, id);
  if (!refund) throw new NotFoundError("refund", id);
  return serializeRefund(refund);
}
