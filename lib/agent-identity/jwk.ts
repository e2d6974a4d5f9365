// Agent public keys (docs/cards.md "Agent keys"): Ed25519 JWKs (RFC 8037), public part only. The RFC 9421 `keyid`
// is the key's RFC 7638 JWK thumbprint (base64url SHA-256 of the required members in lexicographic order).
import { createHash, createPublicKey, type KeyObject } from "node:crypto";
import { z } from "zod";

const B64URL_32_BYTES = /^[A-Za-z0-9_-]{43}$/;

/** What a registration may send: an Ed25519 public JWK. A private member (`d`) is refused, never stored. */
export const PublicJwk = z
  .object({
    kty: z.literal("OKP", { error: "must be OKP (Ed25519 keys only)" }),
    crv: z.literal("Ed25519", { error: "must be Ed25519" }),
    x: z.string().regex(B64URL_32_BYTES, "must be the 32-byte public key, base64url"),
    kid: z.string().max(255).optional(),
    use: z.literal("sig").optional(),
    alg: z.enum(["EdDSA", "Ed25519", "ed25519"]).optional(),
    d: z.undefined({ error: "a private key member (d) must never be sent: register the public key only" }).optional(),
  })
  .strip();
export type PublicJwk = z.output<typeof PublicJwk>;

/** RFC 7638 thumbprint of an OKP key: the keyid agents sign with. */
export function jwkThumbprint(jwk: { crv: string; kty: string; x: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x });
  return createHash("sha256").update(canonical).digest("base64url");
}

export function publicKeyOf(jwk: { crv: string; kty: string; x: string }): KeyObject {
  return createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: "jwk" });
}

/** The public JWK as directories publish it: kid = thumbprint, use sig, alg Ed25519 (JOSE spelling, as Visa's key store). */
export function publishedJwk(jwk: { crv: string; kty: string; x: string }) {
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid: jwkThumbprint(jwk), use: "sig", alg: "Ed25519" };
}

/**
 * The RFC 9421 Appendix B.1.4 test key's thumbprint. The Web Bot Auth draft: verifiers SHOULD reject known test
 * keys in production, so live mode refuses to register it.
 */
export const RFC9421_TEST_KEY_THUMBPRINT = "poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";
