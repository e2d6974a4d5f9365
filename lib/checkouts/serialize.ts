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

/** The columns the API object shows (a raw-SQL read selects just these: checkoutColumns). */
export type CheckoutFields = Omit<Checkout, "merchantId" | "retryOf" | "updatedAt">;

/** Raw SQL select list (FROM checkouts) giving a CheckoutFields row, its status computed by the SQL `status`. */
export const checkoutColumns = (
  status: string,
) => `id, ${status} AS status, amount, currency, items, description, customer_id AS "customerId",
  success_url AS "successUrl", cancel_url AS "cancelUrl", metadata, product_ref AS "productRef",
  require_verified_agent AS "requireVerifiedAgent", livemode, payment_intent_id AS "paymentIntentId", order_id AS "orderId",
  expires_at AS "expiresAt", created_at AS "createdAt"`;

export function serializeCheckout(checkout: CheckoutFields) {
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
