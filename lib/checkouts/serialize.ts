import { env } from "../env";
import type { Checkout } from "../generated/prisma/client";

export function checkoutUrl(id: string): string {
  return `${env.BASE_URL}/pay/${id}`;
}

export function serializeCheckout(checkout: Checkout) {
  return {
    id: checkout.id,
    object: "checkout" as const,
    status: checkout.status,
    amount: checkout.amount,
    currency: checkout.currency,
    items: checkout.items,
    description: checkout.description,
    customerId: checkout.customerId,
    url: checkoutUrl(checkout.id),
    successUrl: checkout.successUrl,
    cancelUrl: checkout.cancelUrl,
    expiresAt: checkout.expiresAt.toISOString(),
    paymentIntentId: checkout.paymentIntentId,
    orderId: checkout.orderId,
    productRef: checkout.productRef,
    /** Only a verified card-network agent may pay it (docs/cards.md). */
    requireVerifiedAgent: checkout.requireVerifiedAgent,
    livemode: checkout.livemode,
    metadata: checkout.metadata,
    createdAt: checkout.createdAt.toISOString(),
  };
}
