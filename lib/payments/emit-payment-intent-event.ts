// A payment_intent.* event carries the PaymentIntent as GET /v1/payment_intents/:id shows it at that moment.
import type { Db } from "../db";
import { emitEvent, plannedEvent } from "../events/emit-event";
import type { EventType } from "../events/types";
import type { PaymentIntent } from "../generated/prisma/client";
import { serializePaymentIntent } from "./serialize";

export function emitPaymentIntentEvent(tx: Db, type: EventType & `payment_intent.${string}`, pi: PaymentIntent) {
  return emitEvent(tx, pi, type, serializePaymentIntent(pi));
}

/** The same event, planned to be written inside a later statement (lib/events/emit-event.ts plannedEvent). */
export function plannedPaymentIntentEvent(type: EventType & `payment_intent.${string}`, pi: PaymentIntent) {
  return plannedEvent(pi, type, serializePaymentIntent(pi));
}
