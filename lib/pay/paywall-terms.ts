// A person pays a paywall's terms (docs/sdk.md "Paywall (single-use), for MCP tools": merchant, amount, currency, sku) with a test card on the
// hosted page GET /pay/paywall. No second payment path: it opens the same paywall checkout as
// POST /v1/paywall/pay (test mode; its PaymentIntent records the sku), then pays it through payCheckout,
// i.e. the API's own captureCheckout and rail. The resulting PaymentIntent is what the payer pastes back
// as `_servicePayment.paymentIntentId`.
import { z } from "zod";
import { cancelCheckout } from "../checkouts/cancel-checkout";
import { MAX_AMOUNT } from "../money/limits";
import { sql, transaction } from "../db";
import { validateCard, type CardForm } from "./card";
import { payCheckout, type PayOutcome } from "./pay-checkout";
import type { Scope } from "../scope";
import { Currency, MerchantId } from "../validation/common";
import { PATH_ID_PATTERN } from "../validation/text-safety";
import { openPaywallCheckout } from "../paywall/open-paywall-checkout";
import { Sku } from "../paywall/schemas";
import { verifyPayment } from "../paywall/verify-payment";

/** The gate's terms as the page's query carries them: ?merchant=&amount=&currency=&sku= */
export const PaywallTermsQuery = z.object({
  merchant: MerchantId,
  amount: z.coerce.number().int().min(1).max(MAX_AMOUNT),
  currency: Currency,
  sku: Sku,
});
export type PaywallTerms = z.output<typeof PaywallTermsQuery>;

/** Paywall payments from the hosted page are test mode: a person pays with a test card. */
export function paywallScope(terms: PaywallTerms): Scope {
  return { merchantId: terms.merchant, livemode: false };
}

export function termsQuery(terms: PaywallTerms): string {
  return new URLSearchParams({
    merchant: terms.merchant,
    amount: String(terms.amount),
    currency: terms.currency,
    sku: terms.sku,
  }).toString();
}

/** What the form token of a terms page is bound to. */
export function termsSubject(terms: PaywallTerms): string {
  return `paywall:${termsQuery(terms)}`;
}

export type PaywallPayment = { outcome: PayOutcome; paymentIntentId: string | null };

export async function payPaywallTerms(terms: PaywallTerms, form: CardForm): Promise<PaywallPayment> {
  const checked = validateCard(form);
  if (!checked.ok) return { outcome: { kind: "invalid", errors: checked.errors, code: "invalid_card" }, paymentIntentId: null };
  const checkout = await transaction((tx) => openPaywallCheckout(tx, paywallScope(terms), terms));
  const outcome = await payCheckout(checkout.id, form);
  if (outcome.kind === "invalid" || outcome.kind === "blocked" || outcome.kind === "unavailable") {
    // Nothing was charged: call the checkout off rather than leave it open for the merchant to see.
    await transaction((tx) => cancelCheckout(tx, paywallScope(terms), checkout.id)).catch(() => undefined);
  }
  return { outcome, paymentIntentId: checkout.paymentIntentId };
}

/**
 * A PaymentIntent that pays these terms (the same rule as POST /v1/paywall/verify), or null. The id comes
 * from the page's query: one that could not name any object (a NUL, spaces, too long) is simply unpaid,
 * and never reaches SQL.
 */
export async function paidTermsPaymentIntent(terms: PaywallTerms, paymentIntentId: string) {
  if (!PATH_ID_PATTERN.test(paymentIntentId)) return null;
  const verdict = await verifyPayment(sql(), paywallScope(terms), { paymentIntentId, merchantId: terms.merchant, ...terms });
  return verdict.valid ? verdict.paymentIntent : null;
}
