// Whose payment a PaymentIntent is, for the charge engine's tick step (lib/payments/recover-charge.ts
// resolveProcessingPayments): the engine sits below its owners and knows none of them, so the tick names
// them. A checkout's row is locked first (the order its capture takes the locks in); a meter's part needs
// no lock of its own (its writes are guarded UPDATEs of the meter's row).
import { lockCheckoutOwner } from "../checkouts/apply-outcomes";
import type { Db } from "../db";
import type { PaymentIntent } from "../generated/prisma/client";
import { SETTLEMENT } from "../meters/charge-meter-payments";
import { FUNDING } from "../meters/fund-meter";
import type { ChargeFollower } from "../payments/apply-charge-outcome";

export async function lockPaymentOwner(tx: Db, pi: PaymentIntent): Promise<{ follower?: ChargeFollower } | null> {
  if (pi.checkoutId) return lockCheckoutOwner(tx, pi.checkoutId);
  if (pi.meterId) return { follower: pi.meterFunding ? FUNDING : SETTLEMENT };
  return {};
}
