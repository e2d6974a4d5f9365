// POST /acp/checkout_sessions/:id/complete: pays the cart with `payment_data.token`, a shared payment token
// (spt_, or its vt_ alias: ACP's vault token, minted by delegate_payment), in ONE transaction with the session
// locked throughout. Money moves only through redeemToken (lib/shared-payment-tokens/redeem-token.ts): an
// ordinary checkout of the merchant opened from the cart's catalog items (source "acp") and captured at once,
// so the PaymentIntent, order, ledger posting, events, webhooks and later refunds are the usual ones. The
// session then names its order. A token outside its allowance (another session, amount above max_amount,
// another currency or merchant, expired or used) is refused with nothing charged (the transaction rolls back);
// a declined card commits its failed PaymentIntent and leaves the session open (402 payment_declined).
import type { Db } from "../db";
import { DomainError, PaymentDeclinedError } from "../errors";
import type { Scope } from "../scope";
import { redeemToken } from "../shared-payment-tokens/redeem-token";
import { acpError } from "./http";
import { lockSession } from "./lock-session";
import type { CompleteSessionInput } from "./schemas";
import { transitionSession } from "./transitions";
import { sessionClosed } from "./update-session";
import { priceCart, viewSession, type CartItem } from "./view-session";

const TOKEN_PARAM = "$.payment_data.token";

export async function completeSession(tx: Db, scope: Scope, id: string, input: CompleteSessionInput) {
  const session = await lockSession(tx, scope, id);
  if (session.status !== "open") throw sessionClosed(id, session.status);
  const cart = await priceCart(tx, scope, session.items as unknown as CartItem[]);
  const problem = cart.messages.find((m) => m.type === "error");
  if (problem && problem.type === "error") {
    throw acpError("VALIDATION_ERROR", `The cart is not ready for payment: ${problem.content}`, {
      type: "invalid_request",
      code: problem.code,
      param: problem.param,
    });
  }
  const tokenId = tokenIdOf(input.payment_data.token);
  let paymentIntent;
  try {
    paymentIntent = await redeemToken(
      tx,
      scope,
      tokenId,
      {
        items: cart.sale,
        currency: cart.currency.toUpperCase(),
        description: `ACP checkout session ${id}`,
        metadata: { acp_checkout_session_id: id },
      },
      { source: "acp", acpCheckoutSessionId: id },
    );
  } catch (err) {
    throw asTokenRefusal(err);
  }
  const completed = await transitionSession(tx, id, "completed", {
    orderId: paymentIntent.orderId,
    paymentIntentId: paymentIntent.id,
    completedAt: new Date(),
    ...(input.buyer ? { buyer: input.buyer } : {}),
  });
  return viewSession(tx, completed);
}

/** spt_..., or vt_... (ACP's name for a vault token) naming the same token. */
function tokenIdOf(token: string): string {
  if (/^spt_[0-9A-Za-z]{10,64}$/.test(token)) return token;
  if (/^vt_[0-9A-Za-z]{10,64}$/.test(token)) return `spt_${token.slice(3)}`;
  throw acpError("VALIDATION_ERROR", "payment_data.token must be a shared payment token (spt_... or vt_...).", {
    type: "invalid_request",
    code: "invalid",
    param: TOKEN_PARAM,
  });
}

/**
 * The token's refusals as ACP errors naming the token, the error itself kept (a decline still commits its
 * failed PaymentIntent, a token in use still frees the Idempotency-Key for a retry).
 */
function asTokenRefusal(err: unknown): unknown {
  if (!(err instanceof DomainError)) return err;
  if (err instanceof PaymentDeclinedError) {
    Object.assign(err.details, { acp: { type: "processing_error", code: "payment_declined", param: TOKEN_PARAM } });
  } else if (["NOT_FOUND", "VALIDATION_ERROR", "FORBIDDEN", "GONE"].includes(err.code)) {
    const reason = typeof err.details.reason === "string" ? err.details.reason : "invalid";
    Object.assign(err.details, {
      acp: { type: "invalid_request", code: reason === "invalid" ? "invalid" : reason, param: TOKEN_PARAM, status: 400 },
    });
  }
  return err;
}
