// Outbox: an event is a row written in the transaction of the change it describes, so it exists exactly
// when the change committed. `data.object` is the object as its GET returns it at that moment. The webhook
// sender fans deliveries out from these rows later.
import { sqlIn, statement, type Db, type PlannedWrite } from "../db";
import { createId } from "../ids";
import type { Scope } from "../scope";
import type { EventType } from "./types";

const INSERT_EVENT = statement(
  "event_emit",
  `INSERT INTO events (id, merchant_id, livemode, type, data, object_id, created_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7)`,
);

export async function emitEvent(tx: Db, scope: Scope, type: EventType, object: Record<string, unknown>): Promise<string> {
  const event = plannedEvent(scope, type, object);
  await sqlIn(tx).count(event.statement, [...event.values]);
  return event.id;
}

/**
 * The same event, planned now (its id and time are taken here) and written later in the same transaction, inside
 * another statement (lib/db.ts deferWrites, lib/sql-model.ts fuse): one round trip fewer.
 */
export function plannedEvent(scope: Scope, type: EventType, object: Record<string, unknown>): PlannedWrite & { id: string } {
  const id = createId("event");
  const objectId = typeof object.id === "string" ? object.id : null;
  const data = JSON.stringify({ object });
  return { id, statement: INSERT_EVENT, values: [id, scope.merchantId, scope.livemode, type, data, objectId, new Date()] };
}
