// A paywall payment is an ordinary one-item checkout of the merchant (so capture, ledger, events, refunds
// and the dashboard all apply unchanged) whose PaymentIntent records the sku it pays for, and, when paid
// through the API, the paying merchant and its request key. Used by POST /v1/paywall/pay and the hosted
// terms page GET /pay/paywall.
import { openCheckout, type PaywallPaymentFields } from "../checkouts/open-checkout";
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { Scope } from "../scope";

export interface PaywallCheckoutTerms {
  amount: number;
  currency: string;
  sku: string;
  /** The gate's productRef: kept on the checkout; when it names a product of the payee (this mode), the
   * line item carries that product's name. The gate's price stays authoritative (docs/sdk.md "Paywall (single-use), for MCP tools"). */
  productRef?: string;
}

/** Long enough to pay, short enough that an abandoned one does not linger open. */
const PAYWALL_CHECKOUT_SECONDS = 600;

export async function openPaywallCheckout(
  tx: Db,
  scope: Scope,
  terms: PaywallCheckoutTerms,
  payer: Omit<PaywallPaymentFields, "sku"> = {},
) {
  const merchant = await tx.merchant.findUnique({ where: { id: scope.merchantId }, select: { id: true } });
  if (!merchant) throw new NotFoundError("merchant", scope.merchantId);
  const product = terms.productRef
    ? await tx.product.findFirst({
        where: { id: terms.productRef, merchantId: scope.merchantId, livemode: scope.livemode },
        select: { name: true },
      })
    : null;
  return openCheckout(
    tx,
    scope,
    {
      currency: terms.currency,
      items: [{ name: product?.name ?? terms.sku, quantity: 1, unitAmount: terms.amount }],
      description: `Paywall access: ${terms.sku}`,
      metadata: { paywall: "true", sku: terms.sku, ...(terms.productRef ? { productRef: terms.productRef } : {}) },
      expiresInSeconds: PAYWALL_CHECKOUT_SECONDS,
      productRef: terms.productRef,
    },
    { source: "paywall", paywall: { sku: terms.sku, ...payer } },
  );
}
