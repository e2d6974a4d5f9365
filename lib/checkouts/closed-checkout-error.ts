import { BusyError, DomainError } from "../errors";
import type { Checkout } from "../generated/prisma/client";

/**
 * 409 for an operation on a checkout that is no longer open. Commits what the request wrote on the way
 * (a crashed charge it recovered), and is the stored idempotent result.
 */
export class ClosedCheckoutError extends DomainError {
  constructor(id: string, status: string) {
    super("CONFLICT", `The checkout ${id} is ${status}, not open.`, { id, status }, true);
  }
}

/**
 * 409 unless the locked checkout is open and within its deadline. One past its deadline is refused as
 * `expired`, as every read shows it, and left for the tick to expire (the one writer of that transition
 * and its events, expire-checkouts.ts).
 */
export function requireOpen(checkout: Checkout, overdue: boolean): void {
  if (checkout.status === "open" && overdue) throw new ClosedCheckoutError(checkout.id, "expired");
  if (checkout.status !== "open") throw new ClosedCheckoutError(checkout.id, checkout.status);
}

/**
 * 409 for a capture or cancel of a checkout whose charge the rail has not decided yet (its PaymentIntent
 * processing): nothing may charge it again or call it off. A BusyError, so the Idempotency-Key is freed and
 * the same request gets the real answer once the tick has the rail's.
 */
export function refuseWhileProcessing(checkout: Checkout): never {
  throw new BusyError(`The payment of checkout ${checkout.id} is processing; retry shortly.`, {
    id: checkout.id,
    status: checkout.status,
    reason: "payment_processing",
  });
}
