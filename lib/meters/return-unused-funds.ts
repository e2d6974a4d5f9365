// Tick, close of a prepaid meter (flagged by close, or by funds captured after it): the usage drew on funds
// charged up front, so nothing is charged; what the usage did not draw goes back to the payer as refunds of
// the funding PaymentIntents, newest first, through the usual refund path (rail refund, ledger,
// payment_intent.refunded), in the settlement's transaction under the meter's row lock. The drawn amount is
// the usage rounded half up to the minor unit, as a post-paid meter's last settlement.
// A refund the rail fails rolls the whole settlement back; the next attempt asks the rail for the same
// refunds again (their keys name the charge and what was refunded of it), never for second ones.
import type { Db } from "../db";
import { createRefund } from "../refunds/create-refund";

interface ClosedPrepaidMeter {
  id: string;
  merchant_id: string;
  livemode: boolean;
  base_units_per_minor: bigint;
  used_base: bigint;
  funded_minor: bigint;
  refunded_minor: bigint;
}

export async function returnUnusedFunds(tx: Db, meter: ClosedPrepaidMeter): Promise<boolean> {
  const perMinor = meter.base_units_per_minor;
  const drawnMinor = (meter.used_base + perMinor / 2n) / perMinor;
  let owed = meter.funded_minor - meter.refunded_minor - drawnMinor;
  const scope = { merchantId: meter.merchant_id, livemode: meter.livemode };
  const fundings = await tx.$queryRaw<{ id: string; refundable: number }[]>`
    SELECT id, amount_captured - amount_refunded AS refundable FROM payment_intents
     WHERE meter_id = ${meter.id} AND meter_funding AND amount_captured > amount_refunded
     ORDER BY created_at DESC, id DESC`;
  // Unflagged first: refunds of a funding are refused while its meter's close settlement is pending
  // (create-refund.ts), except from here, in this transaction.
  await tx.$executeRaw`UPDATE meters SET settle_due_at = NULL WHERE id = ${meter.id}`;
  let returned = 0n;
  for (const funding of fundings) {
    if (owed <= 0n) break;
    const amount = owed < BigInt(funding.refundable) ? owed : BigInt(funding.refundable);
    const refund = await createRefund(tx, scope, { paymentIntentId: funding.id, amount: Number(amount), reason: "meter_closed_unused_funds" });
    returned += BigInt(refund.amount);
    owed -= BigInt(refund.amount);
  }
  await tx.$executeRaw`
    UPDATE meters SET refunded_minor = refunded_minor + ${returned}::bigint, billed_minor = ${drawnMinor}::bigint, updated_at = now()
     WHERE id = ${meter.id}`;
  return returned > 0n;
}
