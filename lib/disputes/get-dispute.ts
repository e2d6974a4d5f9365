import type { Db } from "../db";
import { NotFoundError } from "../errors";
import { findInScope } from "../pagination";
import type { Scope } from "../scope";
import { DISPUTES, serializeDispute, type DisputeFields } from "./serialize";

export async function getDispute(db: Db, scope: Scope, id: string) {
  const dispute = await findInScope<DisputeFields>(db, DISPUTES, scope, id);
  if (!dispute) throw new NotFoundError("dispute", id);
  return serializeDispute(dispute);
}
