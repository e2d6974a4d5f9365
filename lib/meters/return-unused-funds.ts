// Tick, close of a prepaid meter (flagged by close, or by funds captured after it): the usage drew on funds
// charged up front, so nothing is charged; what the usage did not draw goes back to the payer as refunds of
// the funding PaymentIntents, newest first, through the usual refund path (rail refund, ledger,
// payment_intent.refunded). The drawn amount is the usage rounded half up to the minor unit, as a post-paid
// meter's last settlement.
// ONE refund per transaction (under the meter's row lock, then the funding's): the meter stays flagged
// while anything is still owed, and the next tick refunds the next funding, so a meter with many fundings
// never holds a transaction (or the meter) for many rail calls. A refund the rail fails rolls back only
// that step; the next attempt asks the rail for the same refund again (its key names the charge and what
// was refunded of it), never for a second one.
import type { Db } from "../db";
import { createRefund } from "../refunds/create-refund";

interface PrepaidMeterToSettle {
  id: string;
  merchant_id: string;
  livemode: boolean;
  status: string;
  base_units_per_minor: bigint;
  used_base: bigint;
  funded_minor: bigint;
  refunded_minor: bigint;
}

/** Returns true when it refunded something. The caller holds the meter's row lock. */
export async function returnUnusedFunds(tx: Db, meter: PrepaidMeterToSettle): Promise<boolean> {
  // Unflagged first: refunds of a funding are refused while its meter's close settlement is pending
  // (create-refund.ts), except from here, in this transaction.
  await tx.$executeRaw`UPDATE meters SET settle_due_at = NULL WHERE id = ${meter.id}`;
  if (meter.status !== "closed") return false; // an open meter's funds back its budget: nothing to return

  const perMinor = meter.base_units_per_minor;
  const drawnMinor = (meter.used_base + perMinor / 2n) / perMinor;
  const owed = meter.funded_minor - meter.refunded_minor - drawnMinor;
  // The newest funding with something left, locked: its remainder is read under the lock, so a refund by
  // hand just before cannot make this one ask for more than is left.
  const [funding] =
    owed > 0n
      ? await tx.$queryRaw<{ id: string; refundable: number }[]>`
          SELECT id, amount_captured - amount_refunded AS refundable FROM payment_intents
           WHERE meter_id = ${meter.id} AND meter_funding AND amount_captured > amount_refunded
           ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE`
      : [];
  let returned = 0n;
  if (funding) {
    const amount = owed < BigInt(funding.refundable) ? owed : BigInt(funding.refundable);
    const refund = await createRefund(
      tx,
      { merchantId: meter.merchant_id, livemode: meter.livemode },
      {
        paymentIntentId: funding.id,
        amount: Number(amount),
        reason: "meter_closed_unused_funds",
      },
    );
    returned = BigInt(refund.amount);
  }
  const stillOwed = funding !== undefined && owed - returned > 0n;
  await tx.$executeRaw`
    UPDATE meters SET refunded_minor = refunded_minor + ${returned}::bigint, billed_minor = ${drawnMinor}::bigint,
           settle_due_at = CASE WHEN ${stillOwed} THEN now() END, updated_at = now()
     WHERE id = ${meter.id}`;
  return returned > 0n;
}
