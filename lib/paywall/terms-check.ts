// Does a PaymentIntent pay these terms? One rule for the API's verify and the hosted terms page.
// The PaymentIntent is already known to be the merchant's (scoped lookup); another merchant's is not_found.
//   not charged (requires_payment, failed, expired, canceled)  -> not_captured
//   paid for another sku (or no sku: not a paywall payment)     -> reference_mismatch
//   another currency                                             -> currency_mismatch
//   captured minus refunded below the price                      -> insufficient_amount (a full refund too)
// Paying more than the price verifies (the merchant keeps the overpayment, as at a till).
import type { PaymentIntent } from "../generated/prisma/client";
import type { PaywallReasonCode, PaywallTermsToCheck } from "./schemas";

const CHARGED = new Set(["captured", "settled", "refunded"]);

type Checked = Pick<PaymentIntent, "status" | "sku" | "currency" | "amountCaptured" | "amountRefunded">;

/** null when the PaymentIntent pays the terms, else the reason it does not. */
export function termsMismatch(pi: Checked, terms: PaywallTermsToCheck): Exclude<PaywallReasonCode, "not_found"> | null {
  if (!CHARGED.has(pi.status)) return "not_captured";
  if (pi.sku !== terms.sku) return "reference_mismatch";
  if (pi.currency !== terms.currency.toUpperCase()) return "currency_mismatch";
  if (pi.amountCaptured - pi.amountRefunded < terms.amount) return "insufficient_amount";
  return null;
}
