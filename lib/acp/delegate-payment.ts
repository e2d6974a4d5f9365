// POST /acp/agentic_commerce/delegate_payment (ACP's delegated payment, the PSP role): the agent platform,
// holding a key the merchant gave it, vaults the buyer's card with an allowance and gets a token usable only
// within it: once, by this merchant, for at most `max_amount` in `currency`, for the named checkout session,
// before `expires_at`. The token is an ordinary shared payment token (spt_; lib/shared-payment-tokens/mint-token.ts)
// bound to the session, so complete redeems it like any other; the card number is kept only as the test
// payment method it maps to, never as digits. The answer echoes the request's metadata with merchant_id and
// idempotency_key (delegate-payment RFC section 2.4).
import type { Db } from "../db";
import { DomainError } from "../errors";
import { Reply } from "../http/api";
import { paymentMethodForTestCard } from "../rails/test-cards";
import type { Scope } from "../scope";
import { mintToken } from "../shared-payment-tokens/mint-token";
import { MAX_TOKEN_LIFETIME_SECONDS } from "../shared-payment-tokens/schemas";
import { acpError } from "./http";
import type { DelegatePaymentInput } from "./schemas";

const invalid = (message: string, param: string) =>
  acpError("VALIDATION_ERROR", message, { type: "invalid_request", code: "invalid_card", param });

export async function delegatePayment(tx: Db, scope: Scope, input: DelegatePaymentInput, idempotencyKey: string) {
  const { allowance, payment_method: card } = input;
  if (allowance.merchant_id !== scope.merchantId)
    throw invalid("allowance.merchant_id must be the merchant whose key makes this request.", "$.allowance.merchant_id");
  const blocked = input.risk_signals.findIndex((signal) => signal.action === "blocked");
  if (blocked >= 0) throw invalid("A risk signal blocks this payment method.", `$.risk_signals[${blocked}]`);
  if (Object.keys(input.metadata).length > 49 || Object.keys(card.metadata).length > 50)
    throw invalid("At most 49 metadata keys (the token adds one).", "$.metadata");

  const session = await tx.acpCheckoutSession.findFirst({
    where: { id: allowance.checkout_session_id, merchantId: scope.merchantId, livemode: scope.livemode },
    select: { status: true },
  });
  if (!session || session.status !== "open")
    throw invalid("allowance.checkout_session_id must name an open checkout session of this merchant.", "$.allowance.checkout_session_id");

  const paymentMethod = paymentMethodForTestCard(card.number);
  if (!paymentMethod) throw invalid("Unknown card number.", "$.payment_method.number");
  const now = new Date();
  if (card.exp_month && card.exp_year && new Date(Date.UTC(Number(card.exp_year), Number(card.exp_month), 1)) <= now)
    throw invalid("The card has expired.", "$.payment_method.exp_year");
  const expiresAt = new Date(allowance.expires_at);
  if (expiresAt <= now || expiresAt.getTime() > now.getTime() + MAX_TOKEN_LIFETIME_SECONDS * 1000) {
    throw invalid("allowance.expires_at must be in the future and at most 30 days away.", "$.allowance.expires_at");
  }

  const token = await mintToken(
    tx,
    scope,
    {
      paymentMethod,
      maxAmount: allowance.max_amount,
      currency: allowance.currency.toUpperCase(),
      merchantId: scope.merchantId,
      expiresAt: expiresAt.toISOString(),
      metadata: { ...input.metadata, acp_checkout_session_id: allowance.checkout_session_id },
    },
    { acpCheckoutSessionId: allowance.checkout_session_id },
  ).catch((err: unknown) => {
    // The mode's rail does not take this card (a test card in live mode): name the card, not mintToken's field.
    if (err instanceof DomainError && err.code === "VALIDATION_ERROR") throw invalid(err.message, "$.payment_method.number");
    throw err;
  });
  return new Reply(201, {
    id: token.id,
    created: token.createdAt,
    metadata: { ...input.metadata, merchant_id: scope.merchantId, idempotency_key: idempotencyKey },
  });
}
