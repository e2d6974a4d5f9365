// What must hold before a charge is attempted, whoever pays: not blocked by sanctions screening, a
// payment method the mode's rail knows, and a customer wallet only of the payer's own customers. Shared
// by captureCheckout and the paywall's pay endpoint (which checks before it opens anything).
import { isCustomerOf } from "../customers/is-customer-of";
import type { Db } from "../db";
import { env } from "../env";
import { NotFoundError, SanctionsBlockedError, ValidationError } from "../errors";
import { guarded, railFor } from "../rails";
import { isCustomerWalletMethod } from "../rails/test-cards";
import type { Scope } from "../scope";

export interface ChargeInput {
  paymentMethod: string;
  billingCountry?: string;
}

/**
 * Returns the guarded rail to charge. `walletOwner` is whose customers' wallets may pay: the checkout's
 * merchant by default; the paying merchant when one merchant pays another (POST /v1/paywall/pay).
 */
export async function checkCapturable(tx: Db, livemode: boolean, input: ChargeInput, walletOwner: Scope) {
  if (input.billingCountry && env.SANCTIONED_COUNTRIES.includes(input.billingCountry)) {
    throw new SanctionsBlockedError(`Payments billed to ${input.billingCountry} are blocked by sanctions screening; nothing was charged.`);
  }
  // The payer's circuit: the merchant whose request chose the payment method (pm_rail_unavailable included).
  const rail = guarded(railFor(livemode), { merchantId: walletOwner.merchantId, livemode });
  if (!rail.supportsPaymentMethod(input.paymentMethod)) {
    throw new ValidationError(`Unknown payment method '${input.paymentMethod}'.`, [
      { path: "paymentMethod", message: "unknown payment method" },
    ]);
  }
  if (isCustomerWalletMethod(input.paymentMethod) && !(await isCustomerOf(tx, walletOwner, input.paymentMethod))) {
    throw new NotFoundError("customer", input.paymentMethod);
  }
  return rail;
}
