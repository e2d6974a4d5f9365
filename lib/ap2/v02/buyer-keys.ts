// A payer's AP2 v0.2 buyer keys (ap2bk_; docs/a2a.md "AP2 v0.2"): the public key the user's trusted surface signs
// mandates with (the "directly trusted user key" model of AP2's agent_authorization.md). The payer registers it with
// its own API key; a mandate chain's root names it by `kid` = its RFC 7638 thumbprint, and the payment credential
// it pays with must be the same payer's.
import { calculateJwkThumbprint } from "jose";
import { z } from "zod";
import type { Db } from "../../db";
import { ConflictError } from "../../errors";
import { randomBase62 } from "../../ids";
import type { Scope } from "../../scope";

const B64URL = /^[A-Za-z0-9_-]{43}$/;

export const RegisterBuyerKeyBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    /** The public P-256 key (ES256), as a JWK: kty EC, crv P-256, x, y; never a private member. */
    jwk: z.object({ kty: z.literal("EC"), crv: z.literal("P-256"), x: z.string().regex(B64URL), y: z.string().regex(B64URL) }).loose(),
  })
  .strict()
  .refine((b) => !("d" in b.jwk), { message: "jwk must be a public key (no d)", path: ["jwk", "d"] });
export type RegisterBuyerKeyInput = z.output<typeof RegisterBuyerKeyBody>;

export async function registerBuyerKey(tx: Db, payer: Scope, input: RegisterBuyerKeyInput) {
  const jwk = { kty: "EC", crv: "P-256", x: input.jwk.x, y: input.jwk.y };
  const kid = await calculateJwkThumbprint(jwk, "sha256");
  const inserted = await tx.$executeRaw`
    INSERT INTO ap2_buyer_keys (id, merchant_id, livemode, kid, jwk, name)
    VALUES (${`ap2bk_${randomBase62(24)}`}, ${payer.merchantId}, ${payer.livemode}, ${kid}, ${JSON.stringify(jwk)}::jsonb, ${input.name ?? null})
    ON CONFLICT (livemode, kid) DO NOTHING`;
  const key = await tx.ap2BuyerKey.findUniqueOrThrow({ where: { livemode_kid: { livemode: payer.livemode, kid } } });
  if (inserted !== 1 && key.merchantId !== payer.merchantId) throw new ConflictError("This key is registered by another account.");
  return {
    id: key.id,
    object: "ap2_buyer_key" as const,
    kid: key.kid,
    jwk: key.jwk,
    name: key.name,
    livemode: key.livemode,
    createdAt: key.createdAt.toISOString(),
  };
}

/** The registered key of this kid in this mode, with its payer; null when unknown or revoked. */
export async function buyerKey(db: Db, livemode: boolean, kid: string) {
  const key = await db.ap2BuyerKey.findUnique({ where: { livemode_kid: { livemode, kid } } });
  return key && !key.revokedAt ? { payerMerchantId: key.merchantId, jwk: key.jwk as JsonWebKey } : null;
}
