// PaymentIntent lifecycle (docs/payments.md "Objects and statuses"). The one place a PaymentIntent's status changes.
import type { Db } from "../db";
import { Prisma, type PaymentIntent } from "../generated/prisma/client";
import { predictedTransition, transition, type PlannedWrite } from "../sql-model";
import type { TransitionTable } from "../state-machine";

export const PAYMENT_INTENT_STATUSES = [
  "requires_payment",
  "processing",
  "captured",
  "settled",
  "refunded",
  "failed",
  "expired",
  "canceled",
] as const;
export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATUSES)[number];

export const PAYMENT_INTENT_TRANSITIONS: TransitionTable<PaymentIntentStatus> = {
  requires_payment: ["processing", "captured", "failed", "expired", "canceled"],
  // Sent to the rail, its answer later (a rail that settles asynchronously): only the rail's answer ends it
  // (charge-engine.ts resolveProcessing), never a cancel or an expiry, as the money may still arrive.
  processing: ["captured", "failed"],
  captured: ["settled", "refunded"],
  settled: ["refunded"],
  refunded: [],
  failed: [],
  expired: [],
  canceled: [],
};

type Changes = Omit<Prisma.PaymentIntentUpdateManyMutationInput, "status" | "id">;

const PAYMENT_INTENTS = {
  name: "PaymentIntent",
  table: "payment_intents",
  fields: Prisma.PaymentIntentScalarFieldEnum,
  transitions: PAYMENT_INTENT_TRANSITIONS,
};

/**
 * Moves the PaymentIntent to `to` if its current status allows it (checked by the UPDATE itself), with `changes`;
 * `before`: writes to run first in the same statement (lib/sql-model.ts fuse).
 */
export function transitionPaymentIntent(
  tx: Db,
  id: string,
  to: PaymentIntentStatus,
  changes: Changes = {},
  before: readonly PlannedWrite[] = [],
): Promise<PaymentIntent> {
  return transition<PaymentIntent, PaymentIntentStatus>(tx, PAYMENT_INTENTS, id, to, changes, before);
}

/**
 * The same transition of a PaymentIntent this transaction knows unchanged (lib/sql-model.ts predictedTransition):
 * deferred, and its row.
 */
export function predictedPaymentIntentTransition(
  pi: PaymentIntent,
  to: PaymentIntentStatus,
  changes: Changes = {},
): { write: PlannedWrite; row: PaymentIntent } {
  return predictedTransition<PaymentIntentStatus, PaymentIntent>(PAYMENT_INTENTS, pi, to, changes);
}
