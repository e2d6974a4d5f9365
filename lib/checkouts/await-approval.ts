// A checkout whose charge waits for a person (docs/approvals.md): parked in pending_approval until the approval
// request's deadline (the expiry sweep leaves it alone: it looks only at open checkouts), then reopened to be
// charged by the approved capture, or ended with nothing charged when the request is declined or expires.
import type { Db } from "../db";
import type { Checkout } from "../generated/prisma/client";
import { applyCancel, applyExpiry } from "./apply-outcomes";
import { transitionCheckout } from "./transitions";

/** open -> pending_approval; its deadline becomes the request's, so the approved capture finds it within it. */
export function parkForApproval(tx: Db, checkoutId: string, until: Date): Promise<Checkout> {
  return transitionCheckout(tx, checkoutId, "pending_approval", { expiresAt: until });
}

/** pending_approval -> open, for the approved capture in the same transaction. */
export function reopenApproved(tx: Db, checkoutId: string): Promise<Checkout> {
  return transitionCheckout(tx, checkoutId, "open");
}

/** A declined request cancels its checkout, an expired one expires it: PaymentIntent and order end, nothing charged. */
export async function endUnapproved(tx: Db, checkoutId: string, outcome: "declined" | "expired"): Promise<void> {
  const [checkout] = await tx.$queryRaw<Checkout[]>`SELECT id FROM checkouts WHERE id = ${checkoutId} FOR UPDATE`;
  if (!checkout) return;
  const row = await tx.checkout.findUniqueOrThrow({ where: { id: checkoutId } });
  if (row.status !== "pending_approval") return;
  if (outcome === "declined") await applyCancel(tx, row);
  else await applyExpiry(tx, row);
}
