// ES256 key pairs the service keeps in its database to sign with (AP2's CartMandate keys, the service's receipt
// keys): the public JWK is published with its RFC 7638 thumbprint as `kid`, the private JWK is sealed like webhook
// secrets (secret-box.ts) and opened only to sign.
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from "jose";
import { openSecret, sealSecret } from "./secret-box";

export const SIGNING_ALG = "ES256";

export interface SealedKeyPair {
  kid: string;
  /** The public JWK as published: kid, alg and use included (a did:web resolver imports it by its alg). */
  publicJwk: JWK;
  sealedPrivateJwk: string;
}

export async function newSealedKeyPair(): Promise<SealedKeyPair> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateJwk = await exportJWK(privateKey);
  return {
    kid,
    publicJwk: { ...publicJwk, kid, alg: SIGNING_ALG, use: "sig" },
    sealedPrivateJwk: sealSecret(JSON.stringify({ ...privateJwk, kid, alg: SIGNING_ALG })),
  };
}

export async function openPrivateKey(sealed: string): Promise<CryptoKey> {
  const jwk = JSON.parse(openSecret(sealed)) as JWK;
  return (await importJWK(jwk, SIGNING_ALG)) as CryptoKey;
}
