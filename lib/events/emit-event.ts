// Outbox: an event is a row written in the transaction of the change it describes, so it exists exactly
// when the change committed. `data.object` is the object as its GET returns it at that moment. The webhook
// sender fans deliveries out from these rows later.
import type { Db } from "../db";
import { createId } from "../ids";
import type { Scope } from "../scope";
import type { EventType } from "./types";

export async function emitEvent(tx: Db, scope: Scope, type: EventType, object: Record<string, unknown>): Promise<string> {
  const id = createId("event");
  await tx.event.create({
    data: {
      id,
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      type,
      data: { object } as object,
      objectId: typeof object.id === "string" ? object.id : null,
      createdAt: new Date(),
    },
  });
  return id;
}
