// Event types of docs/api-reference.md "Events".
export const EVENT_TYPES = [
  "order.paid",
  "order.refunded",
  "order.canceled",
  "payment_intent.processing",
  "payment_intent.captured",
  "payment_intent.settled",
  "payment_intent.refunded",
  "payment_intent.failed",
  "payment_intent.expired",
  "payment_intent.canceled",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
