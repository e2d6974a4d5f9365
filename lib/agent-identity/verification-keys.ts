// The keys a signature may be checked with (docs/cards.md "Algorithms"): Ed25519 (OKP JWK, RFC 8037) and RSA-PSS
// with SHA-512 (RSA JWK, 2048 bits at least). The algorithm comes from the key (its kty and crv), never from a
// signature's `alg` parameter: an `alg` there, or in the JWK, that names another algorithm refuses the key or the
// signature. The keyid is the key's RFC 7638 thumbprint, computed here (a directory's own `kid` is not trusted).
import { constants, createHash, createPublicKey, verify as cryptoVerify, type KeyObject } from "node:crypto";

export type SignatureAlgorithm = "ed25519" | "rsa-pss-sha512";

export interface VerificationKey {
  keyid: string;
  algorithm: SignatureAlgorithm;
  key: KeyObject;
  /** The public members only, as stored in the directory cache. */
  jwk: Record<string, string>;
}

/** How each algorithm may be spelled in a JWK `alg` or a signature's `alg` parameter. */
const SPELLINGS: Record<SignatureAlgorithm, readonly string[]> = {
  ed25519: ["ed25519", "eddsa"],
  "rsa-pss-sha512": ["rsa-pss-sha512", "ps512"],
};

const B64URL = /^[A-Za-z0-9_-]+$/;
const MIN_RSA_BITS = 2048;
/** RFC 9421 §3.3.1: RSASSA-PSS with SHA-512 and a 64-byte salt. */
const RSA_PSS_SALT_BYTES = 64;

function thumbprint(members: Record<string, string>): string {
  const canonical = JSON.stringify(
    Object.fromEntries(
      Object.keys(members)
        .sort()
        .map((k) => [k, members[k]]),
    ),
  );
  return createHash("sha256").update(canonical).digest("base64url");
}

/** Whether an `alg` claim (JWK member or signature parameter), when there is one, names the key's own algorithm. */
export function algClaimMatches(algorithm: SignatureAlgorithm, claim: unknown): boolean {
  if (claim === undefined) return true;
  return typeof claim === "string" && SPELLINGS[algorithm].includes(claim.toLowerCase());
}

/** A public JWK as a verification key, or null (unsupported type, malformed, a private member, a contradicting alg). */
export function verificationKeyOf(raw: unknown): VerificationKey | null {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return null;
  const jwk = raw as Record<string, unknown>;
  if (jwk.d !== undefined || jwk.p !== undefined) return null;
  let members: Record<string, string>;
  let algorithm: SignatureAlgorithm;
  if (jwk.kty === "OKP" && jwk.crv === "Ed25519" && typeof jwk.x === "string" && B64URL.test(jwk.x)) {
    members = { crv: "Ed25519", kty: "OKP", x: jwk.x };
    algorithm = "ed25519";
  } else if (jwk.kty === "RSA" && typeof jwk.n === "string" && typeof jwk.e === "string" && B64URL.test(jwk.n) && B64URL.test(jwk.e)) {
    members = { e: jwk.e, kty: "RSA", n: jwk.n };
    algorithm = "rsa-pss-sha512";
  } else return null;
  if (!algClaimMatches(algorithm, jwk.alg)) return null;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: members, format: "jwk" });
  } catch {
    return null;
  }
  if (algorithm === "rsa-pss-sha512" && (key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) return null;
  return { keyid: thumbprint(members), algorithm, key, jwk: members };
}

/** The signature over `base` by the key, with the key's algorithm. */
export function verifyWithKey(base: string, signature: Buffer, key: VerificationKey): boolean {
  const data = Buffer.from(base, "utf8");
  try {
    if (key.algorithm === "ed25519") return cryptoVerify(null, data, key.key, signature);
    return cryptoVerify(
      "sha512",
      data,
      { key: key.key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: RSA_PSS_SALT_BYTES },
      signature,
    );
  } catch {
    return false;
  }
}
