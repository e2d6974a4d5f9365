// Prepaid: fund amountMinor more of the meter's budget, charged now (fund-meter.ts), from the meter's payment
// method or the one given. The budget rises only when the charge is captured; a decline is 402 and changes
// nothing else. A retried request (same API key and Idempotency-Key) finds its funding PaymentIntent again by
// its request key: charged once, whatever the retries and however they race (the generic Idempotency-Key
// record replays a finished request's answer; this covers a retry after a crash).
import { transaction, type Db } from "../db";
import type { Meter, PaymentIntent } from "../generated/prisma/client";
import { assertSameRequest, findOrOpenByRequestKey, requestDigest } from "../idempotency/request-key";
import type { Caller, Scope } from "../scope";
import { checkPaymentMethod } from "./create-meter";
import { chargeFunding, fundingAnswer, openFunding, type FundingHooks } from "./fund-meter";
import { readMeter } from "./meter-errors";
import type { TopUpInput } from "./schemas";
import { serializeMeter } from "./serialize";

export async function topUpMeter(
  db: Db,
  caller: Caller,
  meterId: string,
  input: TopUpInput,
  idempotencyKey: string | null,
  hooks: FundingHooks = {},
) {
  const scope: Scope = { merchantId: caller.merchantId, livemode: caller.livemode };
  const requestKey = requestDigest(caller.apiKeyId, idempotencyKey, "meters.top_up");
  const funding = await transaction((tx) =>
    findOrOpenByRequestKey(tx, requestKey, {
      find: (key) => tx.paymentIntent.findUnique({ where: { payerRequestKey: key } }),
      again: async (existing) => sameRequest(existing, await readMeter(tx, scope, meterId), input),
      open: async () => {
        const meter = await readMeter(tx, scope, meterId); // 404 for another merchant's meter
        if (input.paymentMethod) await checkPaymentMethod(tx, scope, input.paymentMethod, meter.customerId);
        return openFunding(tx, meter, input.amountMinor, input.paymentMethod ?? meter.paymentMethod, requestKey);
      },
    }),
  );
  if (funding.status === "requires_payment") await chargeFunding(db, funding.id, hooks);
  else fundingAnswer(funding); // a retry of a request that finished: its answer again
  return serializeMeter(await readMeter(db, scope, meterId));
}

function sameRequest(pi: PaymentIntent, meter: Meter, input: TopUpInput): PaymentIntent {
  assertSameRequest(
    pi.meterFunding &&
      pi.meterId === meter.id &&
      pi.amount === input.amountMinor &&
      pi.paymentMethod === (input.paymentMethod ?? meter.paymentMethod),
  );
  return pi;
}
