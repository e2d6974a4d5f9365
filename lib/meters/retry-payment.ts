// Collect what declined aggregate charges left outstanding: under the meter's row lock, ONE transaction
// opens aggregate PaymentIntents for the whole outstanding amount, moves it from outstanding back to billed
// and, when given, switches the meter to the new payment method. Outstanding sums every declined settlement
// since the last retry (each up to MAX_AMOUNT), so it may exceed what one PaymentIntent carries (MAX_AMOUNT,
// as a checkout; the column is 32-bit): it is split into parts of at most MAX_AMOUNT, each with its own
// settlement number (so its own `meterChargeKey` and rail key). There are never more parts than declined
// charges they collect. The tick charges them like any settlement (charge-meter-payments.ts): a past-due
// meter is open again once nothing is outstanding and a part is captured; a part declined again is
// outstanding again.
import { MAX_AMOUNT } from "../money/limits";
import type { Db } from "../db";
import { ConflictError } from "../errors";
import { openPaymentIntent } from "../payments/open-payment-intent";
import type { Scope } from "../scope";
import { checkPaymentMethod } from "./create-meter";
import { readMeter } from "./meter-errors";
import type { RetryPaymentInput } from "./schemas";
import { serializeMeter } from "./serialize";

export async function retryMeterPayment(tx: Db, scope: Scope, meterId: string, input: RetryPaymentInput) {
  const meter = await readMeter(tx, scope, meterId); // 404 for another merchant's meter
  if (input.paymentMethod) await checkPaymentMethod(tx, scope, input.paymentMethod, meter.customerId);
  const [locked] = await tx.$queryRaw<{ outstanding_minor: bigint; settlement_count: number; payment_method: string }[]>`
    SELECT outstanding_minor, settlement_count, payment_method FROM meters WHERE id = ${meterId} FOR UPDATE`;
  if (locked.outstanding_minor === 0n) {
    throw new ConflictError(`Meter ${meterId} has nothing outstanding to collect.`, { meterId, status: meter.status, outstandingMinor: 0 });
  }
  const parts = splitAmount(locked.outstanding_minor, MAX_AMOUNT);
  const first = locked.settlement_count + 1;
  const last = locked.settlement_count + parts.length;
  const paymentMethod = input.paymentMethod ?? locked.payment_method;
  for (const [i, amount] of parts.entries()) {
    await openPaymentIntent(tx, {
      merchantId: meter.merchantId,
      livemode: meter.livemode,
      amount,
      currency: meter.currency,
      customerId: meter.customerId,
      paymentMethod,
      meterId,
      meterChargeKey: `${meterId}:${first + i}`,
      source: "meter",
    });
  }
  await tx.$executeRaw`
    UPDATE meters SET billed_minor = billed_minor + outstanding_minor, outstanding_minor = 0, settlement_count = ${last}::int,
           payment_method = ${paymentMethod}, updated_at = now()
     WHERE id = ${meterId}`;
  return serializeMeter(await readMeter(tx, scope, meterId));
}

/** `total` (> 0) in parts of at most `max`: all `max` but the last, which carries the rest. */
export function splitAmount(total: bigint, max: number): number[] {
  const cap = BigInt(max);
  const parts: number[] = [];
  for (let left = total; left > 0n; left -= cap) parts.push(Number(left < cap ? left : cap));
  return parts;
}
