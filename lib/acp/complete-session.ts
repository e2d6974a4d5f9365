// POST /acp/checkout_sessions/:id/complete at API-Version 2026-01-16: pays the cart with `payment_data.token`, a
// shared payment token (spt_, or its vt_ alias: ACP's vault token, minted by delegate_payment), in ONE transaction
// with the session locked throughout. Money moves only through the charge engine (lib/acp/pay-session.ts): an
// ordinary checkout of the merchant opened from the cart's catalog items (source "acp") and captured at once,
// so the PaymentIntent, order, ledger posting, events, webhooks and later refunds are the usual ones. The
// session then names its order. 2026-01-30 and later: lib/acp/complete-session-2026.ts.
import type { Db } from "../db";
import type { Scope } from "../scope";
import { acpError } from "./http";
import { lockSession } from "./lock-session";
import { paySession } from "./pay-session";
import type { CompleteSessionInput } from "./schemas";
import { assertChangeable } from "./session-status";
import { priceCart, viewSession, type CartItem } from "./view-session";

export async function completeSession(tx: Db, scope: Scope, id: string, input: CompleteSessionInput) {
  const session = await lockSession(tx, scope, id);
  assertChangeable(session);
  const cart = await priceCart(tx, scope, session.items as unknown as CartItem[]);
  const problem = cart.messages.find((m) => m.type === "error");
  if (problem && problem.type === "error") {
    throw acpError("VALIDATION_ERROR", `The cart is not ready for payment: ${problem.content}`, {
      type: "invalid_request",
      code: problem.code,
      param: problem.param,
    });
  }
  const paid = await paySession(tx, scope, session, {
    token: input.payment_data.token,
    tokenParam: "$.payment_data.token",
    sale: { items: cart.sale, currency: cart.currency },
    authenticationResult: input.authentication_result,
    changes: input.buyer ? { buyer: input.buyer } : {},
  });
  return viewSession(tx, paid);
}
