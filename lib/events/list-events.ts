import type { Db } from "../db";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import type { ListEventsInput } from "./schemas";
import { serializeEvent } from "./serialize";

export async function listEvents(db: Db, scope: Scope, query: ListEventsInput) {
  return listNewestFirst(
    db.event,
    { scope: { merchantId: scope.merchantId, livemode: scope.livemode }, filters: { type: query.type } },
    query,
    serializeEvent,
  );
}
