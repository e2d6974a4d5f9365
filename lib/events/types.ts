// Event types of docs/api-reference.md "Events".
/** SPEC section 6's types (and payment_intent.processing): what an endpoint with no subscription receives. */
export const DEFAULT_EVENT_TYPES = [
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

/**
 * Types added after the contract's list (docs/disputes.md): sent only to the webhook endpoints that name them in
 * `enabledEvents`, so an endpoint with no subscription keeps receiving exactly the types above.
 */
export const OPT_IN_EVENT_TYPES = [
  "dispute.created",
  "dispute.updated",
  "dispute.closed",
  // A charge a spending policy refused (docs/spending-policies.md), sent to the payer's endpoints that name it.
  "payment.policy_refused",
  // Human approval of a charge above a spending policy's threshold (docs/approvals.md): the payer's events.
  "approval_request.created",
  "approval_request.approved",
  "approval_request.declined",
  "approval_request.expired",
] as const;

export const EVENT_TYPES = [...DEFAULT_EVENT_TYPES, ...OPT_IN_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export type DefaultEventType = (typeof DEFAULT_EVENT_TYPES)[number];
