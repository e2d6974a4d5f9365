// Checkout lifecycle: open until paid (complete), expired, canceled, or its charge failed. The one place a
// checkout's status changes.
import type { Db } from "../db";
import type { Checkout } from "../generated/prisma/client";
import { fromStatesOf, transitionConflict, type TransitionTable } from "../state-machine";

export const CHECKOUT_STATUSES = ["open", "complete", "expired", "canceled", "failed"] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

export const CHECKOUT_TRANSITIONS: TransitionTable<CheckoutStatus> = {
  open: ["complete", "expired", "canceled", "failed"],
  complete: [],
  expired: [],
  canceled: [],
  failed: [],
};

export async function transitionCheckout(tx: Db, id: string, to: CheckoutStatus): Promise<Checkout> {
  const from = fromStatesOf(CHECKOUT_TRANSITIONS, to);
  const updated = await tx.checkout.updateManyAndReturn({
    where: { id, status: { in: from } },
    data: { status: to, updatedAt: new Date() },
  });
  if (updated.length !== 1) {
    const current = await tx.checkout.findUnique({ where: { id }, select: { status: true } });
    throw transitionConflict("checkout", id, current?.status, to);
  }
  return updated[0];
}
