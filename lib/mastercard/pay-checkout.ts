// POST /mastercard/checkouts/:id/pay (docs/cards.md "Paying a checkout"): a registered, verified agent pays a
// merchant's checkout with its agentic token and a fresh code, the request signed with Web Bot Auth by the
// token's agent key. One transaction: the signature (its nonce spent), the token row locked, the code spent,
// the checkout captured through captureCheckout (lib/card-networks/pay-with-agent.ts), the token's use counted.
//
// Single use under concurrency: the token's single-use lock is tried first (lib/single-use.ts: a payment of the same
// token in progress anywhere: 409 token_in_use at once, never queued on a connection), then its row locked, the code by an UPDATE that succeeds
// once, the checkout by its row lock. A retry after a crash charges under the same key `<atk>:<n>:<amount>`.
import { requireVerifiedAgent } from "../agent-identity/signed-request";
import { captureWithAgent, lockSellerCheckout } from "../card-networks/pay-with-agent";
import { declined } from "../card-networks/declines";
import { getDb, type Db } from "../db";
import { BusyError, NotFoundError } from "../errors";
import type { AgenticToken } from "../generated/prisma/client";
import type { Scope } from "../scope";
import { lockSingleUse } from "../single-use";
import { tokenBoundTo, tokenStatus } from "./agentic-tokens";
import { spendCode } from "./request-code";
import type { PayCheckoutInput } from "./schemas";

/** The payer's token, locked without waiting; 404 when it is not the payer's, 409 when another payment holds it. */
export async function lockToken(tx: Db, livemode: boolean, id: string, payerMerchantId?: string): Promise<AgenticToken> {
  if (!(await lockSingleUse(tx, "atk", `${livemode ? "live" : "test"}:${id}`))) {
    const exists = await tx.agenticToken.count({ where: { id, livemode, ...(payerMerchantId ? { payerMerchantId } : {}) } });
    if (exists) throw new BusyError(`Agentic token ${id} is being used by another payment; retry shortly.`, { reason: "token_in_use" });
    throw new NotFoundError("agentic_token", id);
  }
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM agentic_tokens WHERE id = ${id} AND livemode = ${livemode} FOR UPDATE`;
  if (!rows[0]) throw new NotFoundError("agentic_token", id);
  const token = await tx.agenticToken.findUniqueOrThrow({ where: { id } });
  if (payerMerchantId && token.payerMerchantId !== payerMerchantId) throw new NotFoundError("agentic_token", id);
  return token;
}

/** Every limit of the token against this checkout; the code is spent last (a refused payment keeps it only if it rolls back). */
export async function checkTokenFor(tx: Db, token: AgenticToken, sellerId: string, amount: number, currency: string, code: string) {
  const status = tokenStatus(token);
  if (status === "revoked") throw declined("token_revoked", `Agentic token ${token.id} was revoked.`);
  if (status === "expired") throw declined("token_expired", `Agentic token ${token.id} has expired.`);
  if (token.uses >= token.maxUses) throw declined("token_uses_exhausted", `Agentic token ${token.id} has no uses left.`);
  if (token.merchantId !== sellerId) throw declined("token_merchant_mismatch", `Agentic token ${token.id} is for another merchant.`);
  if (currency !== token.currency || amount > token.maxAmount - token.amountUsed) {
    throw declined(
      "token_limit_exceeded",
      `The checkout (${amount} ${currency}) exceeds what agentic token ${token.id} has left (${token.maxAmount - token.amountUsed} ${token.currency}).`,
    );
  }
  const codeId = await spendCode(tx, token.id, code);
  if (!codeId) {
    await burnOutstandingCodes(token.id);
    throw declined(
      "dtvc_invalid",
      "The verification code is wrong, used or expired; the token's outstanding codes are void, ask for a fresh one.",
    );
  }
  return codeId;
}

/**
 * A wrong code voids every outstanding code of the token, committed on its own (the refusal rolls the request
 * back): a 3-digit code cannot be guessed by trying again, only the first try can match, and each new code
 * needs a request signed by the token's agent.
 */
async function burnOutstandingCodes(tokenId: string) {
  await getDb()
    .$executeRaw`UPDATE agentic_token_codes SET expires_at = now() WHERE token_id = ${tokenId} AND used_at IS NULL AND expires_at > now()`;
}

export async function recordTokenUse(tx: Db, token: AgenticToken, amount: number, codeId: string, paymentIntentId: string) {
  await tx.$executeRaw`UPDATE agentic_tokens SET uses = uses + 1, amount_used = amount_used + ${amount}, updated_at = now() WHERE id = ${token.id}`;
  await tx.$executeRaw`UPDATE agentic_token_codes SET payment_intent_id = ${paymentIntentId} WHERE id = ${codeId}`;
}

export async function payCheckoutWithToken(
  tx: Db,
  req: Request,
  rawBody: string | undefined,
  payer: Scope,
  checkoutId: string,
  input: PayCheckoutInput,
) {
  const agent = await requireVerifiedAgent(tx, req, rawBody, payer, "mastercard", "pay");
  const token = await lockToken(tx, payer.livemode, input.agenticToken, payer.merchantId);
  if (!tokenBoundTo(token, agent)) throw declined("agent_key_mismatch", `Agentic token ${token.id} is bound to another agent.`);
  const { checkout, seller } = await lockSellerCheckout(tx, payer.livemode, checkoutId);
  const codeId = await checkTokenFor(tx, token, seller.merchantId, checkout.amount, checkout.currency, input.dtvc);
  const n = token.chargeAttempts + 1;
  await tx.$executeRaw`UPDATE agentic_tokens SET charge_attempts = ${n} WHERE id = ${token.id}`;
  const order = await captureWithAgent(tx, {
    seller,
    checkout,
    payer,
    paymentMethod: token.paymentMethod,
    chargeKey: `${token.id}:${n}:${checkout.amount}`,
    source: "mastercard",
    spending: token.spendingAgentId ? { spendingAgentId: token.spendingAgentId, protocol: "mastercard" } : undefined,
    agent: {
      network: "mastercard",
      protocol: "web-bot-auth",
      agentKeyId: agent.key?.id ?? null,
      keyid: agent.keyid,
      tag: agent.tag,
      signatureAgent: agent.signatureAgent,
      nonce: agent.nonce,
      credentialId: token.id,
      verified: true,
      verifiedAt: new Date().toISOString(),
      ...(agent.operator ? { operator: agent.operator } : {}),
    },
  });
  await recordTokenUse(tx, token, checkout.amount, codeId, order.paymentIntentId);
  return order;
}
