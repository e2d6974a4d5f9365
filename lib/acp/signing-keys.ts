// The agent platform's ACP signing keys a merchant registers (docs/acp.md "Request signing"): `/v1/acp_signing_keys`.
// Public JWKs only (Ed25519, or P-256 for ES256); a private member is refused and never stored. While a merchant
// and mode has an unrevoked key, its /acp requests must be signed (lib/acp/signing.ts); revoking the last one
// turns the check off again.
import { createPublicKey } from "node:crypto";
import { z } from "zod";
import type { Db } from "../db";
import { NotFoundError, ValidationError } from "../errors";
import type { AcpSigningKey } from "../generated/prisma/client";
import { createId } from "../ids";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import { ListQuery } from "../validation/common";
import { listOf, Timestamp } from "../validation/objects";

const B64URL_32_BYTES = /^[A-Za-z0-9_-]{43}$/;
const noPrivatePart = { d: z.undefined({ error: "a private key member (d) must never be sent: register the public key only" }).optional() };

const Ed25519Jwk = z.object({ kty: z.literal("OKP"), crv: z.literal("Ed25519"), x: z.string().regex(B64URL_32_BYTES), ...noPrivatePart });
const P256Jwk = z.object({
  kty: z.literal("EC"),
  crv: z.literal("P-256"),
  x: z.string().regex(B64URL_32_BYTES),
  y: z.string().regex(B64URL_32_BYTES),
  ...noPrivatePart,
});

/** An Ed25519 or P-256 public JWK, as stored (its public members only). */
export const SigningJwk = z.discriminatedUnion("kty", [Ed25519Jwk, P256Jwk], {
  error: "must be an Ed25519 (OKP) or P-256 (EC) public JWK",
});
export type SigningJwk = { kty: "OKP"; crv: "Ed25519"; x: string } | { kty: "EC"; crv: "P-256"; x: string; y: string };

export const CreateAcpSigningKeyBody = z.object({ jwk: SigningJwk, name: z.string().max(200).optional() }).strict();
export const RevokeAcpSigningKeyBody = z.object({}).strict().optional();
export const ListAcpSigningKeysQuery = ListQuery;

export const AcpSigningKeyObject = z
  .object({
    id: z.string(),
    object: z.literal("acp_signing_key"),
    name: z.string().nullable(),
    jwk: SigningJwk,
    alg: z.enum(["EdDSA", "ES256"]),
    status: z.enum(["active", "revoked"]),
    livemode: z.boolean(),
    createdAt: Timestamp,
    revokedAt: Timestamp.nullable(),
  })
  .meta({ id: "AcpSigningKey" });
export const AcpSigningKeyList = listOf(AcpSigningKeyObject, "AcpSigningKeyList");

function serialize(row: AcpSigningKey): z.output<typeof AcpSigningKeyObject> {
  const jwk = row.publicJwk as SigningJwk;
  return {
    id: row.id,
    object: "acp_signing_key",
    name: row.name,
    jwk,
    alg: jwk.kty === "OKP" ? "EdDSA" : "ES256",
    status: row.revokedAt ? "revoked" : "active",
    livemode: row.livemode,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** The public members only; a point not on the curve is refused here, not at the first request. */
function publicMembers(jwk: z.output<typeof SigningJwk>): SigningJwk {
  const stored: SigningJwk = jwk.kty === "OKP" ? { kty: "OKP", crv: "Ed25519", x: jwk.x } : { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y };
  try {
    createPublicKey({ key: { ...stored }, format: "jwk" });
  } catch {
    throw new ValidationError("jwk is not a valid public key.", [{ path: "jwk", message: "not a valid public key" }]);
  }
  return stored;
}

export async function createAcpSigningKey(tx: Db, scope: Scope, input: z.output<typeof CreateAcpSigningKeyBody>) {
  const row = await tx.acpSigningKey.create({
    data: {
      id: createId("acpSigningKey"),
      merchantId: scope.merchantId,
      livemode: scope.livemode,
      name: input.name ?? null,
      publicJwk: publicMembers(input.jwk),
    },
  });
  return serialize(row);
}

export function listAcpSigningKeys(db: Db, scope: Scope, query: z.output<typeof ListAcpSigningKeysQuery>) {
  return listNewestFirst(db.acpSigningKey, { scope: { merchantId: scope.merchantId, livemode: scope.livemode } }, query, serialize);
}

/** Revoked once, by one UPDATE ... WHERE revoked_at IS NULL; a second revoke answers the key as it is. */
export async function revokeAcpSigningKey(tx: Db, scope: Scope, id: string) {
  const where = { id, merchantId: scope.merchantId, livemode: scope.livemode };
  await tx.acpSigningKey.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: new Date() } });
  const row = await tx.acpSigningKey.findFirst({ where });
  if (!row) throw new NotFoundError("ACP signing key", id);
  return serialize(row);
}
