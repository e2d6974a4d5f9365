// Collect what a declined aggregate charge left outstanding: under the meter's row lock, ONE transaction
// opens one aggregate PaymentIntent for the whole outstanding amount (a new settlement number, so a new
// `meterChargeKey` and rail key), moves it from outstanding back to billed and, when given, switches the
// meter to the new payment method. The tick charges it like any settlement (charge-meter-payments.ts):
// success returns a past-due meter to open; another decline makes the amount outstanding again.
import type { Db } from "../db";
import { ConflictError } from "../errors";
import { createId } from "../ids";
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
  const n = locked.settlement_count + 1;
  const paymentMethod = input.paymentMethod ?? locked.payment_method;
  await tx.paymentIntent.create({
    data: {
      id: createId("paymentIntent"),
      merchantId: meter.merchantId,
      livemode: meter.livemode,
      status: "requires_payment",
      amount: Number(locked.outstanding_minor),
      currency: meter.currency,
      customerId: meter.customerId,
      paymentMethod,
      meterId,
      meterChargeKey: `${meterId}:${n}`,
      source: "meter",
    },
  });
  await tx.$executeRaw`
    UPDATE meters SET billed_minor = billed_minor + outstanding_minor, outstanding_minor = 0, settlement_count = ${n}::int,
           payment_method = ${paymentMethod}, updated_at = now()
     WHERE id = ${meterId}`;
  return serializeMeter(await readMeter(tx, scope, meterId));
}
