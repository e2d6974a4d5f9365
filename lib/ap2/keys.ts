// The merchant's AP2 signing keys (docs/a2a.md): ES256 key pairs, the private JWK sealed like webhook secrets
// (lib/crypto/secret-box.ts), published as a JWKS at GET /ap2/:merchantId/jwks.json. One active key per merchant
// (a partial unique index decides between concurrent first uses); rotation retires it, and a retired key stays in
// the JWKS, and verifies mandates it signed, for RETIRED_KEY_SECONDS.
import { importJWK, type JWK } from "jose";
import { newSealedKeyPair, openPrivateKey, SIGNING_ALG } from "../crypto/signing-key-pair";
import type { Db } from "../db";

export const RETIRED_KEY_SECONDS = 24 * 3600;
export const ALG = SIGNING_ALG;

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
}

async function insertKey(db: Db, merchantId: string): Promise<void> {
  const row = await newSealedKeyPair();
  await db.$executeRaw`
    INSERT INTO ap2_signing_keys (kid, merchant_id, public_jwk, private_jwk_ciphertext, active)
    VALUES (${row.kid}, ${merchantId}, ${JSON.stringify(row.publicJwk)}::jsonb, ${row.sealedPrivateJwk}, true)
    ON CONFLICT DO NOTHING`;
}

/** The merchant's active signing key, made on first use. */
export async function activeSigningKey(db: Db, merchantId: string): Promise<SigningKey> {
  let key = await db.ap2SigningKey.findFirst({ where: { merchantId, active: true } });
  if (!key) {
    await insertKey(db, merchantId); // a concurrent first use inserts nothing (one active key per merchant)
    key = await db.ap2SigningKey.findFirstOrThrow({ where: { merchantId, active: true } });
  }
  return { kid: key.kid, privateKey: await openPrivateKey(key.privateJwkCiphertext) };
}

function publishedWhere(merchantId: string) {
  return { merchantId, OR: [{ active: true }, { retiredAt: { gt: new Date(Date.now() - RETIRED_KEY_SECONDS * 1000) } }] };
}

/** The public keys that verify the merchant's mandates (the active key and those retired recently). */
export async function merchantJwks(db: Db, merchantId: string): Promise<{ keys: JWK[] }> {
  const keys = await db.ap2SigningKey.findMany({ where: publishedWhere(merchantId), orderBy: { createdAt: "desc" } });
  return { keys: keys.map((key) => key.publicJwk as JWK) };
}

/** The public key `kid` of this merchant, if it still verifies. */
export async function verificationKey(db: Db, merchantId: string, kid: string): Promise<CryptoKey | null> {
  const key = await db.ap2SigningKey.findFirst({ where: { ...publishedWhere(merchantId), kid } });
  return key ? ((await importJWK(key.publicJwk as JWK, ALG)) as CryptoKey) : null;
}

/** Rotation: the active key is retired (still published for a day) and a new one signs from now on. */
export async function rotateSigningKey(tx: Db, merchantId: string) {
  await tx.$executeRaw`UPDATE ap2_signing_keys SET active = false, retired_at = now() WHERE merchant_id = ${merchantId} AND active`;
  await insertKey(tx, merchantId);
  const key = await tx.ap2SigningKey.findFirstOrThrow({ where: { merchantId, active: true } });
  const jwks = await merchantJwks(tx, merchantId);
  return { object: "ap2_signing_key" as const, kid: key.kid, alg: ALG, createdAt: key.createdAt.toISOString(), jwks };
}
