// Opens a meter for one customer. The payment method is checked now (known to the mode's rail; a wallet
// must be a customer of this merchant), so no charge finds it unusable later; without one, the customer's
// own wallet pays. A prepaid meter with a budget is funded now (fund-meter.ts): the meter and its first
// funding PaymentIntent commit together, then the funding is charged.
//
// Besides the generic Idempotency-Key record (which replays the answer), a retry is made safe by the
// meter's own request key (a digest of the API key and Idempotency-Key, unique): a retry that runs again
// finds the same meter and the same funding, so a request that died after the rail charged is answered
// with that charge, never a second one.
import { isDeepStrictEqual } from "node:util";
import { transaction, type Db } from "../db";
import { NotFoundError, ValidationError } from "../errors";
import type { Meter } from "../generated/prisma/client";
import { createId } from "../ids";
import { assertSameRequest, findOrOpenByRequestKey, requestDigest } from "../idempotency/request-key";
import { railFor } from "../rails";
import { isCustomerWalletMethod } from "../rails/test-cards";
import type { Caller, Scope } from "../scope";
import { chargeFunding, openFunding, type FundingHooks } from "./fund-meter";
import { readMeter } from "./meter-errors";
import { DEFAULT_BASE_UNITS_PER_MINOR, type CreateMeterInput } from "./schemas";
import { serializeMeter } from "./serialize";

export async function createMeter(
  db: Db,
  caller: Caller,
  input: CreateMeterInput,
  idempotencyKey: string | null,
  hooks: FundingHooks = {},
) {
  const scope: Scope = { merchantId: caller.merchantId, livemode: caller.livemode };
  const requestKey = requestDigest(caller.apiKeyId, idempotencyKey, "meters.create");
  const { meter, fundingId, created } = await transaction((tx) =>
    findOrOpenByRequestKey(tx, requestKey, {
      find: (key) => tx.meter.findUnique({ where: { requestKey: key } }),
      again: async (existing, key) => {
        const fundingKey = creationFundingKey(key);
        const found = await tx.paymentIntent.findUnique({ where: { payerRequestKey: fundingKey }, select: { id: true, amount: true } });
        assertSameRequest(sameMeterRequest(existing, found?.amount, input));
        // No funding under the key although the request asked for one: the earlier attempt's charge certainly
        // never happened (called off, key freed), so this retry funds the meter afresh.
        const funding =
          found ??
          (input.prepaid && input.budgetMinor
            ? await openFunding(tx, existing, input.budgetMinor, existing.paymentMethod, fundingKey)
            : null);
        return { meter: existing, fundingId: funding?.id ?? null, created: false };
      },
      open: async () => {
        const meter = await insertMeter(tx, scope, input, requestKey);
        const funding =
          input.prepaid && input.budgetMinor
            ? await openFunding(tx, meter, input.budgetMinor, meter.paymentMethod, requestKey && creationFundingKey(requestKey))
            : null;
        return { meter, fundingId: funding?.id ?? null, created: true };
      },
    }),
  );
  if (fundingId) await chargeFunding(db, fundingId, hooks);
  return { created, meter: serializeMeter(await readMeter(db, scope, meter.id)) };
}

async function insertMeter(tx: Db, scope: Scope, input: CreateMeterInput, requestKey: string | null): Promise<Meter> {
  const inScope = { merchantId: scope.merchantId, livemode: scope.livemode };
  const customer = await tx.customer.findFirst({ where: { ...inScope, id: input.customerId }, select: { id: true } });
  if (!customer) throw new NotFoundError("customer", input.customerId);

  const paymentMethod = input.paymentMethod ?? customer.id;
  await checkPaymentMethod(tx, scope, paymentMethod, customer.id);

  return tx.meter.create({
    data: {
      id: createId("meter"),
      ...inScope,
      customerId: customer.id,
      status: "open",
      currency: input.currency,
      prepaid: input.prepaid,
      paymentMethod,
      thresholdMinor: input.thresholdMinor,
      baseUnitsPerMinor: BigInt(input.baseUnitsPerMinor ?? DEFAULT_BASE_UNITS_PER_MINOR),
      requestKey,
      metadata: input.metadata ?? {},
    },
  });
}

/**
 * Whether a retry asks what the first attempt did. (The generic record checks this too, but a retry that
 * takes over the claim of a request that died is compared here, with what that request wrote.)
 */
function sameMeterRequest(meter: Meter, fundedAtCreate: number | undefined, input: CreateMeterInput): boolean {
  return (
    meter.customerId === input.customerId &&
    meter.currency === input.currency &&
    meter.prepaid === input.prepaid &&
    meter.thresholdMinor === input.thresholdMinor &&
    meter.baseUnitsPerMinor === BigInt(input.baseUnitsPerMinor ?? DEFAULT_BASE_UNITS_PER_MINOR) &&
    meter.paymentMethod === (input.paymentMethod ?? input.customerId) &&
    (fundedAtCreate === undefined || fundedAtCreate === (input.budgetMinor ?? 0)) &&
    isDeepStrictEqual(meter.metadata, input.metadata ?? {})
  );
}

/** The request key of the funding a create opened (never a later top-up's): a retry charges or answers it. */
function creationFundingKey(requestKey: string): string {
  return `${requestKey}:creation`;
}

/** The payment method must be known to the mode's rail; a wallet (`cus_...`) must be this merchant's customer. */
export async function checkPaymentMethod(tx: Db, scope: Scope, paymentMethod: string, customerId: string) {
  if (!railFor(scope.livemode).supportsPaymentMethod(paymentMethod)) {
    throw new ValidationError(`Unknown payment method '${paymentMethod}'.`, [{ path: "paymentMethod", message: "unknown payment method" }]);
  }
  if (isCustomerWalletMethod(paymentMethod) && paymentMethod !== customerId) {
    const payer = await tx.customer.findFirst({
      where: { merchantId: scope.merchantId, livemode: scope.livemode, id: paymentMethod },
      select: { id: true },
    });
    if (!payer) throw new NotFoundError("customer", paymentMethod);
  }
}
