import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { serializeRefund } from "./serialize";

export async function getRefund(db: Db, scope: Scope, id: string) {
  const refund = await db.refund.findFirst({ where: { id, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!refund) throw new NotFoundError("refund", id);
  return serializeRefund(refund);
}
