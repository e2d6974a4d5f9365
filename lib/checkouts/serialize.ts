import type { z } from "zod";
import { env } from "../env";
import type { Checkout } from "../generated/prisma/client";
import type { StoredMetadata } from "../validation/objects";
import type { SoldLineItem } from "../orders/schemas";
import type { CheckoutObject } from "./schemas";
import type { CheckoutStatus } from "./transitions";

export function checkoutUrl(id: string): string {
  return `${env.BASE_URL}/pay/${id}`;
}

export function serializeCheckout(checkout: Checkout) {
  return {
    id: checkout.id,
    object: "checkout" as const,
    status: checkout.status as CheckoutStatus,
    amount: checkout.amount,
    currency: checkout.currency,
    items: checkout.items as z.output<typeof SoldLineItem>[],
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
    metadata: checkout.metadata as StoredMetadata,
    createdAt: checkout.createdAt.toISOString(),
  } satisfies z.input<typeof CheckoutObject>;
}
