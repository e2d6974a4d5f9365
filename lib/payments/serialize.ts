import type { PaymentIntent } from "../generated/prisma/client";

export function serializePaymentIntent(pi: PaymentIntent) {
  return {
    id: pi.id,
    object: "payment_intent" as const,
    status: pi.status,
    amount: pi.amount,
    amountCaptured: pi.amountCaptured,
    amountRefunded: pi.amountRefunded,
    currency: pi.currency,
    checkoutId: pi.checkoutId,
    orderId: pi.orderId,
    customerId: pi.customerId,
    paymentMethod: pi.paymentMethod,
    /** Paywall payments: the sku the payment is bound to (null for other payments). */
    sku: pi.sku,
    /** Aggregate payments of a meter: the meter they bill (null for other payments). */
    meterId: pi.meterId,
    capturedAt: pi.capturedAt?.toISOString() ?? null,
    settledAt: pi.settledAt?.toISOString() ?? null,
    failureReason: pi.failureReason,
    livemode: pi.livemode,
    createdAt: pi.createdAt.toISOString(),
  };
}
export type PaymentIntentObject = ReturnType<typeof serializePaymentIntent>;
