// Charge only on success (docs/sdk.md "When the paid call fails"): a paywalled call whose handler throws (MCP,
// HTTP) or answers 5xx (HTTP) keeps its redemption (SPEC 3.3: a redeemed proof never runs the tool again), and its
// PaymentIntent is refunded through the service with the merchant's key: POST /v1/refunds under the
// Idempotency-Key `paywall-failure:<paymentIntentId>`, so however often it is asked (retries, two processes) it is
// refunded once. A refund that fails is reported in the payment block and logged (no key, no request body); it never
// throws, so the caller always gets the call's own answer.
import type { ServiceClient } from "./client";
import { ServiceError } from "./errors";

export const REFUND_IDEMPOTENCY_PREFIX = "paywall-failure:";

/** The payment block of a call that failed after its payment was consumed: refunded. */
export interface RefundedPayment {
  status: "refunded";
  paymentIntentId: string;
  refundId: string;
}

/** ... or not: the merchant refunds it by hand (the same Idempotency-Key never refunds twice). */
export interface RefundFailedPayment {
  status: "refund_failed";
  paymentIntentId: string;
  /** The service's error code (`NOT_FOUND`, `CONFLICT`, `timeout`, ...), or `refund_not_configured`. */
  error: { code: string; message: string };
}

export type FailedCallPayment = RefundedPayment | RefundFailedPayment;

/** The refund's `reason`: it marks a PaymentIntent whose call failed after it was redeemed. */
export const FAILED_CALL_REFUND_REASON = "paywall: the paid call failed";

export interface FailureRefunds {
  /** Refunds the payment of a call that failed, once; never throws. */
  refund(paymentIntentId: string): Promise<FailedCallPayment>;
  /**
   * Whether the payment was refunded after its call failed, and so was redeemed: the verifier then refuses it as
   * `insufficient_amount` (nothing is left of it), but SPEC 3.3 answers a redeemed proof already_redeemed.
   */
  refundedAfterFailure(paymentIntentId: string): Promise<boolean>;
}

/** Refunds through `client` (the merchant's key); with none, every refund is reported as not configured. */
export function failureRefunds(client: ServiceClient | null, name: string): FailureRefunds {
  return {
    refund: (paymentIntentId) => refundFailedCall(client, name, paymentIntentId),
    async refundedAfterFailure(paymentIntentId) {
      if (!client) return false;
      try {
        const refunds = await client.refunds.list({ paymentIntentId, limit: 100 });
        return refunds.data.some((refund) => refund.reason === FAILED_CALL_REFUND_REASON);
      } catch {
        return false; // the verifier's answer stands
      }
    },
  };
}

async function refundFailedCall(client: ServiceClient | null, name: string, paymentIntentId: string): Promise<FailedCallPayment> {
  if (!client)
    return refundFailed(
      name,
      paymentIntentId,
      "refund_not_configured",
      "This paywall has no service to refund through: give it serviceBackend(), serviceConsumedStore() or the refund option.",
    );
  try {
    const refund = await client.refunds.create(
      { paymentIntentId, reason: FAILED_CALL_REFUND_REASON },
      { idempotencyKey: `${REFUND_IDEMPOTENCY_PREFIX}${paymentIntentId}` },
    );
    return { status: "refunded", paymentIntentId, refundId: refund.id };
  } catch (err) {
    if (ServiceError.is(err)) return refundFailed(name, paymentIntentId, err.code, err.message);
    return refundFailed(name, paymentIntentId, "refund_failed", "The refund could not be made.");
  }
}

function refundFailed(name: string, paymentIntentId: string, code: string, message: string): RefundFailedPayment {
  console.warn(
    `${name}: a paid call failed and refunding its payment ${paymentIntentId} failed (${code}: ${message}). ` +
      `Refund it with POST /v1/refunds { paymentIntentId } and Idempotency-Key ${REFUND_IDEMPOTENCY_PREFIX}${paymentIntentId}.`,
  );
  return { status: "refund_failed", paymentIntentId, error: { code, message } };
}

/** A sentence for the caller (MCP content): what happened to its payment. */
export function refundHint(payment: FailedCallPayment): string {
  const spent = "This payment cannot unlock another call; pay again to call again.";
  if (payment.status === "refunded")
    return `The call failed after it was paid: payment ${payment.paymentIntentId} was refunded (${payment.refundId}). ${spent}`;
  return `The call failed after it was paid, and refunding payment ${payment.paymentIntentId} failed (${payment.error.code}); the merchant can refund it. ${spent}`;
}
