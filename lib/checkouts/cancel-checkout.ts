// Cancel: call an open checkout off before any charge (PaymentIntent canceled, order canceled).
import type { Db } from "../db";
import type { Scope } from "../scope";
import { applyCancel, applyExpiry, recoverCrashedCharge } from "./apply-outcomes";
import { ClosedCheckoutError } from "./closed-checkout-error";
import { lockCheckout } from "./lock-checkout";
import { serializeCheckout } from "./serialize";

export async function cancelCheckout(tx: Db, scope: Scope, id: string) {
  const locked = await lockCheckout(tx, scope, id);
  const pi = await tx.paymentIntent.findUniqueOrThrow({ where: { id: locked.checkout.paymentIntentId } });
  const { checkout } = await recoverCrashedCharge(tx, locked.checkout, pi);
  if (checkout.status === "open" && locked.overdue) {
    await applyExpiry(tx, checkout);
    throw new ClosedCheckoutError(checkout.id, "expired");
  }
  if (checkout.status !== "open") throw new ClosedCheckoutError(checkout.id, checkout.status);
  return serializeCheckout(await applyCancel(tx, checkout));
}
