// A payer's AP2 v0.2 buyer keys (ap2bk_; docs/a2a.md "AP2 v0.2"): the public key the user's trusted surface signs
// mandates with (the "directly trusted user key" model of AP2's agent_authorization.md). The payer registers it with
// its own API key; a mandate chain's root names it by `kid` = its RFC 7638 thumbprint, and the payment credential
// it pays with must be the same payer's. The payer lists its keys and revokes one for good: a revoked key's mandates
// are refused from the moment the revocation commits (a payment reads its key FOR SHARE, so a revocation waits for
// the payments verifying with it, and every later payment sees it revoked).
import { calculateJwkThumbprint } from "jose";
import { z } from "zod";
import type { Db } from "../../db";
import { ConflictError, NotFoundError } from "../../errors";
import type { Ap2BuyerKey } from "../../generated/prisma/client";
import { randomBase62 } from "../../ids";
import { listNewestFirst } from "../../pagination";
import type { Scope } from "../../scope";
import { requireOwnSpendingAgent } from "../../spending-policies/agents";
import { ListQuery } from "../../validation/common";

const B64URL = /^[A-Za-z0-9_-]{43}$/;

export const RegisterBuyerKeyBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    /**
     * The payer's spending agent (sag_) whose mandates this key signs: every charge under a mandate the key signed
     * (open ones above all: the agent spends alone) counts against that agent's policy (docs/spending-policies.md).
     */
    spendingAgentId: z.string().min(1).max(64).optional(),
    /** The public P-256 key (ES256), as a JWK: kty EC, crv P-256, x, y; never a private member. */
    jwk: z.object({ kty: z.literal("EC"), crv: z.literal("P-256"), x: z.string().regex(B64URL), y: z.string().regex(B64URL) }).loose(),
  })
  .strict()
  .refine((b) => !("d" in b.jwk), { message: "jwk must be a public key (no d)", path: ["jwk", "d"] });
export type RegisterBuyerKeyInput = z.output<typeof RegisterBuyerKeyBody>;

export async function registerBuyerKey(tx: Db, payer: Scope, input: RegisterBuyerKeyInput) {
  const jwk = { kty: "EC", crv: "P-256", x: input.jwk.x, y: input.jwk.y };
  const kid = await calculateJwkThumbprint(jwk, "sha256");
  const spendingAgentId = await requireOwnSpendingAgent(tx, payer, input.spendingAgentId); // another payer's: 404
  // Registering a key again answers it as it was registered (its agent included): a key's agent never changes.
  const inserted = await tx.$executeRaw`
    INSERT INTO ap2_buyer_keys (id, merchant_id, livemode, kid, jwk, name, spending_agent_id)
    VALUES (${`ap2bk_${randomBase62(24)}`}, ${payer.merchantId}, ${payer.livemode}, ${kid}, ${JSON.stringify(jwk)}::jsonb, ${input.name ?? null},
            ${spendingAgentId})
    ON CONFLICT (livemode, kid) DO NOTHING`;
  const key = await tx.ap2BuyerKey.findUniqueOrThrow({ where: { livemode_kid: { livemode: payer.livemode, kid } } });
  if (inserted !== 1 && key.merchantId !== payer.merchantId) throw new ConflictError("This key is registered by another account.");
  return serializeBuyerKey(key);
}

export function serializeBuyerKey(key: Ap2BuyerKey) {
  return {
    id: key.id,
    object: "ap2_buyer_key" as const,
    kid: key.kid,
    jwk: key.jwk,
    name: key.name,
    revokedAt: key.revokedAt?.toISOString() ?? null,
    spendingAgentId: key.spendingAgentId,
    livemode: key.livemode,
    createdAt: key.createdAt.toISOString(),
  };
}

export const ListBuyerKeysQuery = z.object({ ...ListQuery.shape }).strict();

/** The payer's keys in its mode, newest first (revoked ones too, with revokedAt). */
export function listBuyerKeys(db: Db, payer: Scope, query: z.output<typeof ListBuyerKeysQuery>) {
  return listNewestFirst(db.ap2BuyerKey, { scope: { merchantId: payer.merchantId, livemode: payer.livemode } }, query, serializeBuyerKey);
}

/** Revoked for good (registering the same key again answers it revoked); revoking twice is harmless. */
export async function revokeBuyerKey(tx: Db, payer: Scope, id: string) {
  const owned = { id, merchantId: payer.merchantId, livemode: payer.livemode };
  await tx.$executeRaw`
    UPDATE ap2_buyer_keys SET revoked_at = now()
     WHERE id = ${id} AND merchant_id = ${payer.merchantId} AND livemode = ${payer.livemode} AND revoked_at IS NULL`;
  const key = await tx.ap2BuyerKey.findFirst({ where: owned });
  if (!key) throw new NotFoundError("ap2_buyer_key", id);
  return serializeBuyerKey(key);
}

export interface BuyerKeyOfKid {
  payerMerchantId: string;
  jwk: JsonWebKey;
  revoked: boolean;
  /** The spending agent whose mandates the key signs (its policy checked at the charge), or null. */
  spendingAgentId: string | null;
}

/**
 * The registered key of this kid in this mode, with its payer; null when unknown. Read FOR SHARE in the paying
 * transaction, so that a revocation (an UPDATE of the row) cannot commit while a payment verifies with the key.
 */
export async function buyerKey(tx: Db, livemode: boolean, kid: string): Promise<BuyerKeyOfKid | null> {
  const [key] = await tx.$queryRaw<{ merchant_id: string; jwk: JsonWebKey; revoked: boolean; spending_agent_id: string | null }[]>`
    SELECT merchant_id, jwk, revoked_at IS NOT NULL AS revoked, spending_agent_id FROM ap2_buyer_keys
     WHERE livemode = ${livemode} AND kid = ${kid} FOR SHARE`;
  return key ? { payerMerchantId: key.merchant_id, jwk: key.jwk, revoked: key.revoked, spendingAgentId: key.spending_agent_id } : null;
}
