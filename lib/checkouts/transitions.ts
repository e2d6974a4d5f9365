// Checkout lifecycle: open until paid (complete), expired, canceled, or its charge failed; a charge above a
// spending policy's approval threshold waits in pending_approval (await-approval.ts) until a person approves
// (open again, then charged), declines (canceled) or the request expires (expired). The one place a checkout's
// status changes.
import type { Db } from "../db";
import { Prisma, type Checkout } from "../generated/prisma/client";
import { plannedTransition, predictedTransition, transition, type PlannedTransition, type PlannedWrite } from "../sql-model";
import type { TransitionTable } from "../state-machine";

export const CHECKOUT_STATUSES = ["open", "pending_approval", "complete", "expired", "canceled", "failed"] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

export const CHECKOUT_TRANSITIONS: TransitionTable<CheckoutStatus> = {
  open: ["complete", "expired", "canceled", "failed", "pending_approval"],
  pending_approval: ["open", "expired", "canceled"],
  complete: [],
  expired: [],
  canceled: [],
  failed: [],
};

export const CHECKOUTS = {
  name: "checkout",
  table: "checkouts",
  fields: Prisma.CheckoutScalarFieldEnum,
  transitions: CHECKOUT_TRANSITIONS,
};

export function transitionCheckout(tx: Db, id: string, to: CheckoutStatus, changes: Record<string, unknown> = {}): Promise<Checkout> {
  return transition<Checkout, CheckoutStatus>(tx, CHECKOUTS, id, to, changes);
}

/** The same transition, planned to run fused before another write (lib/sql-model.ts transition's `before`). */
export function plannedCheckoutTransition(id: string, to: CheckoutStatus): PlannedTransition {
  return plannedTransition(CHECKOUTS, id, to);
}

/** The same transition of a checkout this transaction knows unchanged (lib/sql-model.ts predictedTransition): deferred, and its row. */
export function predictedCheckoutTransition(checkout: Checkout, to: CheckoutStatus): { write: PlannedWrite; row: Checkout } {
  return predictedTransition<CheckoutStatus, Checkout>(CHECKOUTS, checkout, to);
}
