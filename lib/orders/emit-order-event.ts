// An order.* event carries the order as GET /v1/orders/:id shows it at that moment.
import type { Db } from "../db";
import { emitEvent, plannedEvent } from "../events/emit-event";
import type { EventType } from "../events/types";
import type { Order } from "../generated/prisma/client";
import { serializeOrder } from "./serialize";

export function emitOrderEvent(tx: Db, type: EventType & `order.${string}`, order: Order) {
  return emitEvent(tx, order, type, serializeOrder(order));
}

/** The same event, planned to be written inside a later statement (lib/events/emit-event.ts plannedEvent). */
export function plannedOrderEvent(type: EventType & `order.${string}`, order: Order) {
  return plannedEvent(order, type, serializeOrder(order));
}
