// A person pays a paywall's terms (SPEC.md 2.4: merchant, amount, currency, sku) with a test card on the
// hosted page GET /pay/paywall. No second payment path: it opens a one-item checkout for the merchant
// (test mode) whose item and metadata carry the sku, then pays it through payCheckout, i.e. the API's own
// captureCheckout and rail. The resulting PaymentIntent (amount, currency, merchant; sku via its
// checkout: metadata.sku) is what the payer pastes back as `_servicePayment.paymentIntentId`.
//
// Merge note: POST /v1/paywall/pay (built separately) can call payPaywallTerms with a paymentMethod
// instead of a card form, and /v1/paywall/verify finds the sku at checkout.metadata.sku unless a sku
// column on PaymentIntent lands; then openPaywallCheckout is the one place to also set it.
import { z } from "zod";
import { cancelCheckout } from "../checkouts/cancel-checkout";
import { openCheckout } from "../checkouts/open-checkout";
import { MAX_AMOUNT } from "../checkouts/schemas";
import { getDb, transaction, type Db } from "../db";
import { NotFoundError } from "../errors";
import { validateCard, type CardForm } from "../pay/card";
import { payCheckout, type PayOutcome } from "../pay/pay-checkout";
import { getPaymentIntent } from "../payments/get-payment-intent";
import type { Scope } from "../scope";
import { Currency } from "../validation/common";

/** The gate's terms as the page's query carries them: ?merchant=&amount=&currency=&sku= */
export const PaywallTermsQuery = z.object({
  merchant: z.string().regex(/^mer_[0-9A-Za-z]{10,64}$/, "must be a merchant id"),
  amount: z.coerce.number().int().min(1).max(MAX_AMOUNT),
  currency: Currency,
  sku: z.string().trim().min(1).max(200).regex(/^[\x20-\x7E]+$/, "printable ASCII"),
});
export type PaywallTerms = z.output<typeof PaywallTermsQuery>;

/** Paywall payments from the hosted page are test mode: a person pays with a test card. */
export function paywallScope(terms: PaywallTerms): Scope {
  return { merchantId: terms.merchant, livemode: false };
}

export function termsQuery(terms: PaywallTerms): string {
  return new URLSearchParams({ merchant: terms.merchant, amount: String(terms.amount), currency: terms.currency, sku: terms.sku }).toString();
}

/** What the form token of a terms page is bound to. */
export function termsSubject(terms: PaywallTerms): string {
  return `paywall:${termsQuery(terms)}`;
}

export async function openPaywallCheckout(tx: Db, terms: PaywallTerms) {
  const merchant = await tx.merchant.findUnique({ where: { id: terms.merchant }, select: { id: true } });
  if (!merchant) throw new NotFoundError("merchant", terms.merchant);
  return openCheckout(tx, paywallScope(terms), {
    currency: terms.currency,
    items: [{ name: terms.sku, quantity: 1, unitAmount: terms.amount }],
    description: `Paywall access: ${terms.sku}`,
    metadata: { paywall: "true", sku: terms.sku },
    expiresInSeconds: 600,
  });
}

export type PaywallPayment = { outcome: PayOutcome; paymentIntentId: string | null };

export async function payPaywallTerms(terms: PaywallTerms, form: CardForm): Promise<PaywallPayment> {
  const checked = validateCard(form);
  if (!checked.ok) return { outcome: { kind: "invalid", errors: checked.errors, code: "invalid_card" }, paymentIntentId: null };
  const checkout = await transaction((tx) => openPaywallCheckout(tx, terms));
  const outcome = await payCheckout(checkout.id, form);
  if (outcome.kind === "invalid" || outcome.kind === "blocked" || outcome.kind === "unavailable") {
    // Nothing was charged: call the checkout off rather than leave it open for the merchant to see.
    await transaction((tx) => cancelCheckout(tx, paywallScope(terms), checkout.id)).catch(() => undefined);
  }
  return { outcome, paymentIntentId: checkout.paymentIntentId };
}

/** A PaymentIntent that paid exactly these terms (captured or settled, same amount, currency and sku), or null. */
export async function paidTermsPaymentIntent(terms: PaywallTerms, paymentIntentId: string, db: Db = getDb()) {
  if (!/^pi_[0-9A-Za-z]{10,64}$/.test(paymentIntentId)) return null;
  const pi = await getPaymentIntent(db, paywallScope(terms), paymentIntentId).catch(() => null);
  if (!pi || !["captured", "settled"].includes(pi.status) || pi.amount !== terms.amount || pi.currency !== terms.currency || !pi.checkoutId) return null;
  const checkout = await db.checkout.findUnique({ where: { id: pi.checkoutId }, select: { metadata: true } });
  const sku = (checkout?.metadata as Record<string, unknown> | null)?.sku;
  return sku === terms.sku ? pi : null;
}
