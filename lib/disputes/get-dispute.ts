import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { serializeDispute } from "./serialize";

export async function getDispute(db: Db, scope: Scope, id: string) {
  const dispute = await db.dispute.findFirst({ where: { id, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!dispute) throw new NotFoundError("dispute", id);
  return serializeDispute(dispute);
}
