// POST /v1/shared_payment_tokens: a payer's agent mints a scoped, single-use credential with the payer's
// OWN key instead of handing over a card. The payment method is checked now (the mode's rail knows it; a
// wallet is one of the payer's own customers) so a token that could never pay is refused at once; a card
// number is kept only as the test payment method it maps to, never as digits.
import type { Db } from "../db";
import { NotFoundError, ValidationError } from "../errors";
import { createId } from "../ids";
import { paymentMethodForTestCard } from "../rails/test-cards";
import { checkCapturable } from "../checkouts/check-capturable";
import type { Scope } from "../scope";
import { requireOwnSpendingAgent } from "../spending-policies/agents";
import { DEFAULT_TOKEN_LIFETIME_SECONDS, MAX_TOKEN_LIFETIME_SECONDS, type MintTokenInput } from "./schemas";
import { serializeToken } from "./serialize";

const CARD_NUMBER = /^[\d\s-]{12,23}$/;

/** `acpCheckoutSessionId`: minted by ACP's delegate_payment, the token pays only that checkout session (lib/acp). */
export async function mintToken(tx: Db, payer: Scope, input: MintTokenInput, options: { acpCheckoutSessionId?: string } = {}) {
  const paymentMethod = methodOf(input.paymentMethod);
  await checkCapturable(tx, payer.livemode, { paymentMethod }, payer); // unknown method 400, another's wallet 404
  if (input.merchantId) {
    const merchant = await tx.merchant.findUnique({ where: { id: input.merchantId }, select: { id: true } });
    if (!merchant) throw new NotFoundError("merchant", input.merchantId);
  }
  const spendingAgentId = await requireOwnSpendingAgent(tx, payer, input.spendingAgentId); // another payer's: 404
  const now = new Date();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : new Date(now.getTime() + DEFAULT_TOKEN_LIFETIME_SECONDS * 1000);
  if (expiresAt.getTime() <= now.getTime() || expiresAt.getTime() > now.getTime() + MAX_TOKEN_LIFETIME_SECONDS * 1000) {
    throw new ValidationError("expiresAt must be in the future and at most 30 days away.", [
      { path: "expiresAt", message: "must be in the future and at most 30 days away" },
    ]);
  }
  const token = await tx.sharedPaymentToken.create({
    data: {
      id: createId("sharedPaymentToken"),
      payerMerchantId: payer.merchantId,
      livemode: payer.livemode,
      status: "active",
      paymentMethod,
      maxAmount: input.maxAmount,
      currency: input.currency,
      merchantId: input.merchantId ?? null,
      expiresAt,
      metadata: input.metadata ?? {},
      acpCheckoutSessionId: options.acpCheckoutSessionId ?? null,
      spendingAgentId,
      createdAt: now,
      updatedAt: now,
    },
  });
  return serializeToken(token);
}

/** A card number (spaces and dashes allowed) becomes its test payment method; anything else is taken as given. */
function methodOf(given: string): string {
  if (!CARD_NUMBER.test(given)) return given;
  const method = paymentMethodForTestCard(given);
  if (!method)
    throw new ValidationError("Unknown test card number.", [
      { path: "paymentMethod", message: "not a test card number this service knows" },
    ]);
  return method;
}
