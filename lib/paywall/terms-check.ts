// Does a PaymentIntent pay these terms? One rule, as ONE SQL fragment, for every path that checks a proof:
// the API's verify, the hosted terms page (through verify) and the combined verify-and-redeem, which must
// decide in the same statement that inserts the redemption (so the rule cannot live in TypeScript). A
// redemption without terms (amount NULL) checks nothing.
// The PaymentIntent is already known to be the merchant's (scoped lookup); another merchant's is not_found.
// In this order:
//   not charged (requires_payment, failed, expired, canceled)  -> not_captured
//   paid for another sku (or no sku: not a paywall payment)     -> reference_mismatch
//   another currency                                             -> currency_mismatch
//   captured minus refunded below the price                      -> insufficient_amount (a full refund too)
// Paying more than the price verifies (the merchant keeps the overpayment, as at a till).
import type { PaywallReasonCode } from "./schemas";

/** Placeholders (`$4`, ...) of the statement's parameters holding the terms. */
export interface TermsParams {
  amount: string;
  currency: string;
  sku: string;
}

/**
 * A SQL expression over a `payment_intents` row: NULL when it pays the terms (or there are none), else the
 * reason code (`Exclude<PaywallReasonCode, "not_found">`). Select it `AS "reasonCode"`.
 */
export function termsMismatchSql(p: TermsParams): string {
  return `CASE
    WHEN ${p.amount}::integer IS NULL THEN NULL
    WHEN status NOT IN ('captured', 'settled', 'refunded') THEN 'not_captured'
    WHEN sku IS DISTINCT FROM ${p.sku}::text THEN 'reference_mismatch'
    WHEN currency <> upper(${p.currency}::text) THEN 'currency_mismatch'
    WHEN amount_captured - amount_refunded < ${p.amount}::integer THEN 'insufficient_amount'
  END`;
}

export type TermsMismatch = Exclude<PaywallReasonCode, "not_found"> | null;
