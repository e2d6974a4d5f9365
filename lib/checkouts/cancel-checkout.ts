// Cancel: call an open checkout off before any charge (PaymentIntent canceled, order canceled).
import type { Db } from "../db";
import type { Scope } from "../scope";
import { applyCancel, recoverCrashedCharge } from "./apply-outcomes";
import { refuseWhileProcessing, requireOpen } from "./closed-checkout-error";
import { lockCheckoutForCharge } from "./lock-checkout";
import { serializeCheckout } from "./serialize";

export async function cancelCheckout(tx: Db, scope: Scope, id: string) {
  const locked = await lockCheckoutForCharge(tx, scope, id);
  const { pi, pendingAttempt } = locked;
  const { checkout, recovered } = await recoverCrashedCharge(tx, locked.checkout, pi, pendingAttempt);
  if (recovered?.kind === "processing") refuseWhileProcessing(checkout);
  requireOpen(checkout, locked.overdue);
  return serializeCheckout(await applyCancel(tx, checkout));
}
