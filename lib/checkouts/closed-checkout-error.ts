import type { Db } from "../db";
import { DomainError } from "../errors";
import type { Checkout } from "../generated/prisma/client";
import { applyExpiry } from "./apply-outcomes";

/**
 * 409 for an operation on a checkout that is no longer open. Commits what the request found and wrote
 * on the way (an expiry it noticed, a crashed charge it recovered), and is the stored idempotent result.
 */
export class ClosedCheckoutError extends DomainError {
  constructor(id: string, status: string) {
    super("CONFLICT", `The checkout ${id} is ${status}, not open.`, { id, status }, true);
  }
}

/** 409 unless the locked checkout is open; one found past its deadline is expired first (that commits with the 409). */
export async function requireOpen(tx: Db, checkout: Checkout, overdue: boolean): Promise<void> {
  if (checkout.status === "open" && overdue) {
    await applyExpiry(tx, checkout);
    throw new ClosedCheckoutError(checkout.id, "expired");
  }
  if (checkout.status !== "open") throw new ClosedCheckoutError(checkout.id, checkout.status);
}
