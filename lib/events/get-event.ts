import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";
import { serializeEvent } from "./serialize";

export async function getEvent(db: Db, scope: Scope, id: string) {
  const event = await db.event.findFirst({ where: { id, merchantId: scope.merchantId, livemode: scope.livemode } });
  if (!event) throw new NotFoundError("event", id);
  return serializeEvent(event);
}
