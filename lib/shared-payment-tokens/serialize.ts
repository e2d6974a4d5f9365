import type { z } from "zod";
import type { SharedPaymentToken } from "../generated/prisma/client";
import type { StoredMetadata } from "../validation/objects";
import type { SharedPaymentTokenObject as SharedPaymentTokenSchema, TokenStatus } from "./schemas";

/** `expired` is read from the clock: an active token past expiresAt. */
export function tokenStatus(token: Pick<SharedPaymentToken, "status" | "expiresAt">, now = new Date()): TokenStatus {
  if (token.status === "active" && token.expiresAt.getTime() <= now.getTime()) return "expired";
  return token.status as TokenStatus;
}

/** The payer's view of its own token (the payee never reads tokens; it gets its PaymentIntent). */
export function serializeToken(token: SharedPaymentToken) {
  return {
    id: token.id,
    object: "shared_payment_token" as const,
    status: tokenStatus(token),
    paymentMethod: token.paymentMethod,
    maxAmount: token.maxAmount,
    currency: token.currency,
    merchantId: token.merchantId,
    expiresAt: token.expiresAt.toISOString(),
    metadata: token.metadata as StoredMetadata,
    redeemedAt: token.redeemedAt?.toISOString() ?? null,
    redeemedAmount: token.redeemedAmount,
    /** The payee's PaymentIntent, once redeemed (the payer's receipt; only the payee can read it). */
    paymentIntentId: token.paymentIntentId,
    revokedAt: token.revokedAt?.toISOString() ?? null,
    spendingAgentId: token.spendingAgentId,
    livemode: token.livemode,
    createdAt: token.createdAt.toISOString(),
  } satisfies z.input<typeof SharedPaymentTokenSchema>;
}
