// "Try again with another card": a declined checkout is closed for good (its order canceled, as the API
// promises), so the payer's way back is a NEW checkout with the same terms (amount, items, description,
// URLs, customer, metadata), its PaymentIntent of the same source. One per declined checkout: the row lock
// serialises two clicks and the unique retry_of index backs it; a second click gets the same checkout.
// Only checkouts the hosted page sells (sources api and pay_page); paywall and protocol checkouts retry
// through their own flows.
import type { Db } from "../db";
import { openCheckout } from "./open-checkout";
import type { PaymentSource } from "../payment-sources";

const RETRYABLE: PaymentSource[] = ["api", "pay_page"];

/** The merchant's metadata, plus `retry_of` so its systems can tie the retry to its first order (while under the 50 keys). */
function withRetryOf(metadata: Record<string, string>, checkoutId: string): Record<string, string> {
  return Object.keys(metadata).length < 50 ? { ...metadata, retry_of: checkoutId } : metadata;
}

/** The retry's id, or null when this checkout cannot be retried (not declined, not a hosted sale, unknown). */
export async function retryDeclinedCheckout(tx: Db, checkoutId: string): Promise<string | null> {
  const [declined] = await tx.$queryRaw<
    { id: string }[]
  >`SELECT id FROM checkouts WHERE id = ${checkoutId} AND status = 'failed' FOR UPDATE`;
  if (!declined) return null;
  const existing = await tx.checkout.findUnique({ where: { retryOf: checkoutId }, select: { id: true } });
  if (existing) return existing.id;
  const checkout = await tx.checkout.findUniqueOrThrow({ where: { id: checkoutId } });
  const pi = await tx.paymentIntent.findUniqueOrThrow({ where: { id: checkout.paymentIntentId }, select: { source: true } });
  if (!RETRYABLE.includes(pi.source as PaymentSource)) return null;
  const items =
    Array.isArray(checkout.items) && checkout.items.length > 0
      ? (checkout.items as { name: string; quantity: number; unitAmount: number }[])
      : undefined;
  const opened = await openCheckout(
    tx,
    { merchantId: checkout.merchantId, livemode: checkout.livemode },
    {
      ...(items ? { items: items.map(({ name, quantity, unitAmount }) => ({ name, quantity, unitAmount })) } : { amount: checkout.amount }),
      currency: checkout.currency,
      ...(checkout.description ? { description: checkout.description } : {}),
      ...(checkout.customerId ? { customerId: checkout.customerId } : {}),
      ...(checkout.successUrl ? { successUrl: checkout.successUrl } : {}),
      ...(checkout.cancelUrl ? { cancelUrl: checkout.cancelUrl } : {}),
      metadata: withRetryOf(checkout.metadata as Record<string, string>, checkoutId),
      ...(checkout.requireVerifiedAgent ? { requireVerifiedAgent: true } : {}),
    },
    { source: pi.source as PaymentSource },
  );
  await tx.checkout.update({ where: { id: opened.id }, data: { retryOf: checkoutId } });
  return opened.id;
}
