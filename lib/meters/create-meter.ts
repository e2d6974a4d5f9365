// Opens a meter for one customer. The payment method the aggregate PaymentIntents will charge is checked
// now (known to the mode's rail; a wallet must be a customer of this merchant), so a settlement never
// finds it unusable later. Without one, the customer's own wallet pays.
import type { Db } from "../db";
import { NotFoundError, ValidationError } from "../errors";
import { createId } from "../ids";
import { railFor } from "../rails";
import { isCustomerWalletMethod } from "../rails/test-cards";
import type { Scope } from "../scope";
import { DEFAULT_BASE_UNITS_PER_MINOR, type CreateMeterInput } from "./schemas";
import { serializeMeter } from "./serialize";

export async function createMeter(tx: Db, scope: Scope, input: CreateMeterInput) {
  const inScope = { merchantId: scope.merchantId, livemode: scope.livemode };
  const customer = await tx.customer.findFirst({ where: { ...inScope, id: input.customerId }, select: { id: true } });
  if (!customer) throw new NotFoundError("customer", input.customerId);

  const paymentMethod = input.paymentMethod ?? customer.id;
  await checkPaymentMethod(tx, scope, paymentMethod, customer.id);

  const baseUnitsPerMinor = BigInt(input.baseUnitsPerMinor ?? DEFAULT_BASE_UNITS_PER_MINOR);
  const meter = await tx.meter.create({
    data: {
      id: createId("meter"),
      ...inScope,
      customerId: customer.id,
      status: "open",
      currency: input.currency,
      prepaid: input.prepaid,
      paymentMethod,
      thresholdMinor: input.thresholdMinor,
      baseUnitsPerMinor,
      budgetBase: input.prepaid ? BigInt(input.budgetMinor ?? 0) * baseUnitsPerMinor : 0n,
      metadata: input.metadata ?? {},
    },
  });
  return serializeMeter(meter);
}

/** The payment method must be known to the mode's rail; a wallet (`cus_...`) must be this merchant's customer. */
export async function checkPaymentMethod(tx: Db, scope: Scope, paymentMethod: string, customerId: string) {
  if (!railFor(scope.livemode).supportsPaymentMethod(paymentMethod)) {
    throw new ValidationError(`Unknown payment method '${paymentMethod}'.`, [{ path: "paymentMethod", message: "unknown payment method" }]);
  }
  if (isCustomerWalletMethod(paymentMethod) && paymentMethod !== customerId) {
    const payer = await tx.customer.findFirst({ where: { merchantId: scope.merchantId, livemode: scope.livemode, id: paymentMethod }, select: { id: true } });
    if (!payer) throw new NotFoundError("customer", paymentMethod);
  }
}
