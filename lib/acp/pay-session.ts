// Paying a locked, changeable ACP session (every API version): 3-D Secure first (lib/acp/three-ds.ts), then the
// shared payment token redeemed through the charge engine (redeemOrAwaitApproval -> redeemToken: an ordinary
// checkout of the merchant, source "acp", captured at once), and the session completed naming its order, all in
// the caller's transaction while it holds the session's row lock and its completion lock (shown as
// complete_in_progress meanwhile, lib/acp/session-status.ts). A token outside its allowance is refused with nothing
// charged; a declined card commits its failed PaymentIntent and leaves the session open (402 payment_declined).
import type { Db } from "../db";
import { ApprovalPendingError, redeemOrAwaitApproval } from "../shared-payment-tokens/await-approval";
import { DomainError, PaymentDeclinedError } from "../errors";
import type { AcpCheckoutSession, Prisma } from "../generated/prisma/client";
import type { RedeemTokenInput } from "../shared-payment-tokens/schemas";
import type { Scope } from "../scope";
import { acpError } from "./http";
import { holdCompletionLock } from "./session-status";
import { authenticationStep, type AuthenticationResult } from "./three-ds";
import { transitionSession } from "./transitions";

export interface Payment {
  /** The token as the agent sent it, and the JSONPath it came in (for errors). */
  token: string;
  tokenParam: string;
  sale: { items: NonNullable<RedeemTokenInput["items"]>; currency: string };
  authenticationResult?: AuthenticationResult;
  /** Stored with the completion (a buyer given at complete; the quote a 2026 version charged). */
  changes?: { buyer?: Prisma.InputJsonValue; completedQuote?: Prisma.InputJsonValue };
}

/** The session to answer: completed, waiting for approval, or marked authentication_required (nothing charged). */
export async function paySession(tx: Db, scope: Scope, session: AcpCheckoutSession, payment: Payment): Promise<AcpCheckoutSession> {
  await holdCompletionLock(tx, session.id);
  const tokenId = tokenIdOf(payment.token, payment.tokenParam);
  const threeDs = await authenticationStep(tx, scope, session, tokenId, payment.authenticationResult);
  if ("required" in threeDs) return threeDs.required;
  let paymentIntent;
  try {
    paymentIntent = await redeemOrAwaitApproval(
      tx,
      scope,
      tokenId,
      {
        items: payment.sale.items,
        currency: payment.sale.currency.toUpperCase(),
        description: `ACP checkout session ${session.id}`,
        metadata: { acp_checkout_session_id: session.id },
      },
      { source: "acp", acpCheckoutSessionId: session.id, authenticated: threeDs.authenticated },
    );
  } catch (err) {
    // Above the payer's approval threshold: the session waits (pending_approval) and completes when approved
    // (lib/acp/approval-outcome.ts), showing the quote it will have charged.
    if (err instanceof ApprovalPendingError) {
      const quote = payment.changes?.completedQuote;
      return quote ? tx.acpCheckoutSession.update({ where: { id: session.id }, data: { completedQuote: quote } }) : session;
    }
    throw asTokenRefusal(err, payment.tokenParam);
  }
  return transitionSession(tx, session.id, "completed", {
    orderId: paymentIntent.orderId,
    paymentIntentId: paymentIntent.id,
    completedAt: new Date(),
    ...payment.changes,
  });
}

/** spt_..., or vt_... (ACP's name for a vault token) naming the same token. */
function tokenIdOf(token: string, param: string): string {
  if (/^spt_[0-9A-Za-z]{10,64}$/.test(token)) return token;
  if (/^vt_[0-9A-Za-z]{10,64}$/.test(token)) return `spt_${token.slice(3)}`;
  throw acpError("VALIDATION_ERROR", "The token must be a shared payment token (spt_... or vt_...).", {
    type: "invalid_request",
    code: "invalid",
    param,
  });
}

/**
 * The token's refusals as ACP errors naming the token, the error itself kept (a decline still commits its
 * failed PaymentIntent, a token in use still frees the Idempotency-Key for a retry).
 */
function asTokenRefusal(err: unknown, param: string): unknown {
  if (!(err instanceof DomainError)) return err;
  if (err instanceof PaymentDeclinedError) {
    Object.assign(err.details, { acp: { type: "processing_error", code: "payment_declined", param } });
  } else if (["NOT_FOUND", "VALIDATION_ERROR", "FORBIDDEN", "GONE"].includes(err.code)) {
    const reason = typeof err.details.reason === "string" ? err.details.reason : "invalid";
    Object.assign(err.details, {
      acp: { type: "invalid_request", code: reason === "invalid" ? "invalid" : reason, param, status: 400 },
    });
  }
  return err;
}
