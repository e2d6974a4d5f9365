// Mastercard agentic tokens (atk_; docs/cards.md "Agentic tokens"): test mode's MDES network token for one agent
// key (or one trusted foreign agent operator; docs/cards.md "Foreign agent operators") and one merchant, with an amount ceiling, a number of uses and an expiry; the payer (who owns the agent key)
// issues and revokes it. Its token number is a Luhn-valid 16-digit number starting with 5, unique; it pays only
// with a fresh single-use Dynamic Token Verification Code (request-code.ts).
import { randomInt } from "node:crypto";
import { checkCapturable } from "../checkouts/check-capturable";
import type { Db } from "../db";
import { BusyError, NotFoundError, ValidationError } from "../errors";
import type { AgenticToken } from "../generated/prisma/client";
import { createId } from "../ids";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import { requireOwnSpendingAgent } from "../spending-policies/agents";
import type { IssueTokenInput } from "./schemas";
import { isTrustedOperator } from "../agent-identity/foreign-operator";
import type { VerifiedAgent } from "../agent-identity/verify-agent-request";
import type { z } from "zod";
import type { ListTokensQuery } from "./schemas";

const DEFAULT_LIFETIME_MS = 24 * 3600_000;
const MAX_LIFETIME_MS = 365 * 24 * 3600_000;

export type TokenStatus = "active" | "revoked" | "expired" | "exhausted";

export function tokenStatus(t: AgenticToken, now = new Date()): TokenStatus {
  if (t.revokedAt) return "revoked";
  if (t.uses >= t.maxUses || t.amountUsed >= t.maxAmount) return "exhausted";
  if (t.expiresAt.getTime() <= now.getTime()) return "expired";
  return "active";
}

export function serializeAgenticToken(t: AgenticToken) {
  return {
    id: t.id,
    object: "agentic_token" as const,
    network: "mastercard" as const,
    tokenNumber: t.tokenNumber,
    last4: t.last4,
    status: tokenStatus(t),
    agentKeyId: t.agentKeyId,
    agentOperator: t.agentOperator,
    merchantId: t.merchantId,
    maxAmount: t.maxAmount,
    remainingAmount: Math.max(0, t.maxAmount - t.amountUsed),
    currency: t.currency,
    maxUses: t.maxUses,
    usesRemaining: Math.max(0, t.maxUses - t.uses),
    expiresAt: t.expiresAt.toISOString(),
    revokedAt: t.revokedAt?.toISOString() ?? null,
    spendingAgentId: t.spendingAgentId,
    livemode: t.livemode,
    createdAt: t.createdAt.toISOString(),
  };
}

function luhnCheckDigit(partial: string): string {
  let sum = 0;
  for (let i = 0; i < partial.length; i++) {
    let d = Number(partial[partial.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

function newTokenNumber(): string {
  let body = "522222";
  while (body.length < 15) body += String(randomInt(10));
  return body + luhnCheckDigit(body);
}

/** The agent the token is for: one of the payer's Mastercard keys (404 otherwise), or a trusted foreign operator. */
async function tokenAgent(tx: Db, payer: Scope, input: IssueTokenInput) {
  if (input.agentOperator !== undefined) {
    if (!isTrustedOperator(input.agentOperator))
      throw new ValidationError("agentOperator is not a trusted agent operator (AGENT_DIRECTORIES_TRUSTED).", [
        { path: "agentOperator", message: "not a trusted agent operator" },
      ]);
    return { agentKeyId: null, agentOperator: input.agentOperator };
  }
  const key = await tx.agentKey.findFirst({
    where: { id: input.agentKeyId, network: "mastercard", merchantId: payer.merchantId, livemode: payer.livemode },
  });
  if (!key) throw new NotFoundError("agent_key", input.agentKeyId);
  return { agentKeyId: key.id, agentOperator: null };
}

/** Whether the verified agent is the token's: its registered key, or an agent of its foreign operator. */
export function tokenBoundTo(token: AgenticToken, agent: VerifiedAgent): boolean {
  return token.agentKeyId !== null ? token.agentKeyId === agent.key?.id : token.agentOperator === agent.operator;
}

export async function issueAgenticToken(tx: Db, payer: Scope, input: IssueTokenInput) {
  await checkCapturable(tx, payer.livemode, { paymentMethod: input.paymentMethod }, payer); // unknown 400, another's wallet 404
  const agent = await tokenAgent(tx, payer, input);
  const merchant = await tx.merchant.findUnique({ where: { id: input.merchantId }, select: { id: true } });
  if (!merchant) throw new NotFoundError("merchant", input.merchantId);
  const spendingAgentId = await requireOwnSpendingAgent(tx, payer, input.spendingAgentId); // another payer's: 404
  const now = new Date();
  const expiresAt = input.limits.expiresAt ? new Date(input.limits.expiresAt) : new Date(now.getTime() + DEFAULT_LIFETIME_MS);
  if (expiresAt.getTime() <= now.getTime() || expiresAt.getTime() > now.getTime() + MAX_LIFETIME_MS) {
    throw new ValidationError("limits.expiresAt must be in the future and at most a year away.", [
      { path: "limits.expiresAt", message: "in the future, at most a year away" },
    ]);
  }
  for (let attempt = 0; ; attempt++) {
    const tokenNumber = newTokenNumber();
    const rows = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO agentic_tokens (id, payer_merchant_id, livemode, agent_key_id, agent_operator, merchant_id, payment_method, token_number, last4,
                                  max_amount, currency, max_uses, expires_at, spending_agent_id, created_at, updated_at)
      VALUES (${createId("agenticToken")}, ${payer.merchantId}, ${payer.livemode}, ${agent.agentKeyId}, ${agent.agentOperator}, ${input.merchantId}, ${input.paymentMethod},
              ${tokenNumber}, ${tokenNumber.slice(-4)}, ${input.limits.maxAmount}, ${input.limits.currency}, ${input.limits.maxUses},
              ${expiresAt}, ${spendingAgentId}, ${now}, ${now})
      ON CONFLICT (token_number) DO NOTHING RETURNING id`;
    if (rows[0]) return serializeAgenticToken(await tx.agenticToken.findUniqueOrThrow({ where: { id: rows[0].id } }));
    if (attempt > 5) throw new BusyError("Could not allocate a token number; retry.");
  }
}

/** The payer's token of this mode; else 404. */
export async function findToken(db: Db, payer: Scope, id: string): Promise<AgenticToken> {
  const t = await db.agenticToken.findFirst({ where: { id, payerMerchantId: payer.merchantId, livemode: payer.livemode } });
  if (!t) throw new NotFoundError("agentic_token", id);
  return t;
}

export async function getAgenticToken(db: Db, payer: Scope, id: string) {
  return serializeAgenticToken(await findToken(db, payer, id));
}

export async function listAgenticTokens(db: Db, payer: Scope, query: z.output<typeof ListTokensQuery>) {
  return listNewestFirst(
    db.agenticToken,
    { scope: { payerMerchantId: payer.merchantId, livemode: payer.livemode } },
    query,
    serializeAgenticToken,
  );
}

/** The consumer's revocation: the next use is declined with token_revoked. Waits for a payment in progress. */
export async function revokeAgenticToken(tx: Db, payer: Scope, id: string) {
  await findToken(tx, payer, id);
  await tx.$queryRaw`SELECT id FROM agentic_tokens WHERE id = ${id} FOR UPDATE`;
  await tx.agenticToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date(), updatedAt: new Date() } });
  return getAgenticToken(tx, payer, id);
}
