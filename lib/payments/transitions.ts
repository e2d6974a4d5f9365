// PaymentIntent lifecycle (docs/payments.md "Objects and statuses"). The one place a PaymentIntent's status changes.
import type { Db } from "../db";
import type { PaymentIntent, Prisma } from "../generated/prisma/client";
import { fromStatesOf, transitionConflict, type TransitionTable } from "../state-machine";

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

/** Moves the PaymentIntent to `to` if its current status allows it (checked by the UPDATE itself), with `changes`. */
export async function transitionPaymentIntent(tx: Db, id: string, to: PaymentIntentStatus, changes: Changes = {}): Promise<PaymentIntent> {
  const from = fromStatesOf(PAYMENT_INTENT_TRANSITIONS, to);
  const updated = await tx.paymentIntent.updateManyAndReturn({
    where: { id, status: { in: from } },
    data: { ...changes, status: to, updatedAt: new Date() },
  });
  if (updated.length !== 1) {
    const current = await tx.paymentIntent.findUnique({ where: { id }, select: { status: true } });
    throw transitionConflict("PaymentIntent", id, current?.status, to);
  }
  return updated[0];
}
