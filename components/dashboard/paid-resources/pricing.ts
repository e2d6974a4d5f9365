// The price fields of "Create paid resource" read as POST /v1/paid_resources takes them (minor units), with what is
// wrong with them: exact, `amount`; upto, `unitAmount` and `maxAmount`, the maximum covering at least one unit (the
// server checks the same: lib/paid-resources/schemas.ts).
import { inputToMinor, minorToInput } from "@/lib/dashboard/format";
import { currencyDigits } from "@/lib/money/format";

export type Scheme = "exact" | "upto";
export interface PricingDraft {
  scheme: Scheme;
  /** exact: the price; upto: the price of one unit. */
  price: string;
  /** upto: the most one payment is charged. */
  maxPrice: string;
  currency: string;
}
export interface PricingProblems {
  price?: string;
  maxAmount?: string;
}
type PricingBody = { scheme: "exact"; amount: number } | { scheme: "upto"; unitAmount: number; maxAmount: number };

export function readPricing(draft: PricingDraft): { body: PricingBody; problems: PricingProblems } {
  const digits = currencyDigits(draft.currency);
  const example = (major: number) => major.toFixed(digits);
  const price = inputToMinor(draft.price, digits);
  const priceOk = price !== null && price >= 1;
  if (draft.scheme === "exact")
    return { body: { scheme: "exact", amount: price ?? 0 }, problems: priceOk ? {} : { price: `Enter a price such as ${example(0.05)}.` } };
  const problems: PricingProblems = {};
  if (!priceOk) problems.price = `Enter a price per unit such as ${example(0.01)}.`;
  const max = inputToMinor(draft.maxPrice, digits);
  if (max === null || max < 1) problems.maxAmount = `Enter a maximum such as ${example(1)}.`;
  else if (priceOk && max < price) problems.maxAmount = `Enter a maximum of at least one unit's price (${minorToInput(price, digits)}).`;
  return { body: { scheme: "upto", unitAmount: price ?? 0, maxAmount: max ?? 0 }, problems };
}
