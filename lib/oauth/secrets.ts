// OAuth codes and tokens: random, prefixed (so they are recognised on sight and in leak scanners), and
// stored only as SHA-256 hashes (they are 43 random base62 characters: a fast hash is right, as for API keys).
import { createHash } from "node:crypto";
import { randomBase62 } from "../ids";

export const CODE_PREFIX = "aps_code_";
export const ACCESS_TOKEN_PREFIX = "aps_at_";
export const REFRESH_TOKEN_PREFIX = "aps_rt_";

export const newSecret = (prefix: string) => `${prefix}${randomBase62(43)}`;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** base64url(SHA-256(verifier)): the PKCE S256 challenge of a verifier (RFC 7636 4.2). */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

/** RFC 7636 4.1: 43..128 unreserved characters. */
export const PKCE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge: 43 base64url characters (a SHA-256 digest). */
export const PKCE_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;
