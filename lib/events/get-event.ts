import type { Db } from "../db";
import { NotFoundError } from "../errors";
import { findInScope } from "../pagination";
import type { Scope } from "../scope";
import { EVENTS, serializeEvent, type EventFields } from "./serialize";

export async function getEvent(db: Db, scope: Scope, id: string) {
  const event = await findInScope<EventFields>(db, EVENTS, scope, id);
  if (!event) throw new NotFoundError("event", id);
  return serializeEvent(event);
}
