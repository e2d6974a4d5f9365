// What the public pay page shows for a checkout id, read through the same domain functions as the API
// (getCheckout sweeps an overdue checkout to expired first, so the page never offers an expired one).
// The checkout id is the capability: unguessable, so the page needs no credential.
import { getCheckout } from "../checkouts/get-checkout";
import type { Db } from "../db";
import { getPaymentIntent } from "../checkouts/read-orders-and-payments";
import { paymentsAvailable } from "../rails";
import type { Scope } from "../scope";
import { PATH_ID_PATTERN } from "../validation/text-safety";

export interface PayPageItem {
  name: string;
  quantity: number;
  unitAmount: number;
}

export interface PayPageView {
  checkout: Awaited<ReturnType<typeof getCheckout>>;
  items: PayPageItem[];
  merchantName: string;
  /** The merchant's pay page brand (Settings); null for the default look. */
  brand: { color: string | null; logoUrl: string | null };
  failureReason: string | null;
  /** False for a live checkout while no live rail is configured: the form says payments are unavailable. */
  paymentsAvailable: boolean;
}

/** The merchant and mode a checkout belongs to, or null when no such checkout exists. */
export async function checkoutScope(db: Db, checkoutId: string): Promise<Scope | null> {
  if (!checkoutId.startsWith("cs_") || !PATH_ID_PATTERN.test(checkoutId)) return null;
  return db.checkout.findUnique({ where: { id: checkoutId }, select: { merchantId: true, livemode: true } });
}

export async function loadPayPage(db: Db, checkoutId: string): Promise<PayPageView | null> {
  const scope = await checkoutScope(db, checkoutId);
  if (!scope) return null;
  const checkout = await getCheckout(db, scope, checkoutId);
  const [merchant, paymentIntent] = await Promise.all([
    db.merchant.findUniqueOrThrow({ where: { id: scope.merchantId }, select: { name: true, brandColor: true, logoUrl: true } }),
    getPaymentIntent(db, scope, checkout.paymentIntentId),
  ]);
  return {
    checkout,
    items: Array.isArray(checkout.items) ? (checkout.items as unknown as PayPageItem[]) : [],
    merchantName: merchant.name,
    brand: { color: merchant.brandColor, logoUrl: merchant.logoUrl },
    failureReason: paymentIntent.failureReason,
    paymentsAvailable: paymentsAvailable(checkout.livemode),
  };
}
