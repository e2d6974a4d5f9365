// One fetch of a foreign agent operator's key directory (docs/cards.md "Foreign agent operators"):
// `<origin>/.well-known/http-message-signatures-directory` through the outbound guard (lib/security/guarded-get.ts:
// public addresses only unless AGENT_DIRECTORY_ALLOW_PRIVATE_URLS, 64 KiB, 3 s, two redirects), a JWKS of Ed25519
// and RSA keys, accepted only as far as the response's own signatures go (directory-signature.ts). The answer's
// Cache-Control says how long it stays fresh.
import { env } from "../env";
import { guardedGet } from "../security/guarded-get";
import { DIRECTORY_MEDIA_TYPE } from "./agent-keys";
import { signedDirectoryKeys } from "./directory-signature";
import { verificationKeyOf, type VerificationKey } from "./verification-keys";

export const DIRECTORY_PATH = "/.well-known/http-message-signatures-directory";
export const DIRECTORY_MAX_BYTES = 64 * 1024;
export const DIRECTORY_TIMEOUT_MS = 3_000;
const MAX_REDIRECTS = 2;
/** Keys read from one directory at most (the rest are ignored). */
const MAX_KEYS = 32;
/** Freshness without Cache-Control, and the longest a directory is kept. */
const DEFAULT_MAX_AGE = 300;
const LONGEST_MAX_AGE = 86_400;

export type DirectoryFailure = "unreachable" | "refused_address" | "bad_response" | "bad_directory_signature";

export type FetchedDirectory = { ok: true; keys: VerificationKey[]; maxAge: number } | { ok: false; failure: DirectoryFailure };

/** Seconds of freshness from Cache-Control: max-age (s-maxage wins), 0 for no-store/no-cache, clamped to a day. */
export function maxAgeOf(cacheControl: string | undefined): number {
  if (!cacheControl) return DEFAULT_MAX_AGE;
  const directives = new Map(
    cacheControl.split(",").map((part) => {
      const [name, value] = part.trim().split("=");
      return [name.toLowerCase(), value?.replace(/"/g, "")] as const;
    }),
  );
  if (directives.has("no-store") || directives.has("no-cache")) return 0;
  const seconds = Number(directives.get("s-maxage") ?? directives.get("max-age"));
  return Number.isInteger(seconds) && seconds >= 0 ? Math.min(seconds, LONGEST_MAX_AGE) : DEFAULT_MAX_AGE;
}

function keysOf(body: Buffer): VerificationKey[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    return null;
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) return null;
  return keys.slice(0, MAX_KEYS).flatMap((jwk) => verificationKeyOf(jwk) ?? []);
}

export async function fetchDirectory(origin: string, now = Math.floor(Date.now() / 1000)): Promise<FetchedDirectory> {
  const res = await guardedGet(`${origin}${DIRECTORY_PATH}`, {
    allowPrivate: env.AGENT_DIRECTORY_ALLOW_PRIVATE_URLS,
    maxBytes: DIRECTORY_MAX_BYTES,
    timeoutMs: DIRECTORY_TIMEOUT_MS,
    maxRedirects: MAX_REDIRECTS,
    headers: { accept: `${DIRECTORY_MEDIA_TYPE}, application/json` },
  });
  if (!res.ok) return { ok: false, failure: res.failure === "refused_address" ? "refused_address" : "unreachable" };
  if (res.status !== 200) return { ok: false, failure: "bad_response" };
  const listed = keysOf(res.body);
  if (!listed || listed.length === 0) return { ok: false, failure: "bad_response" };
  const header = (name: string) => {
    const value = res.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  };
  // The signature covers the authority of the request made: the URL that answered (after any redirect).
  const keys = signedDirectoryKeys(listed, { url: res.url, header }, now);
  if (!keys) return { ok: false, failure: "bad_directory_signature" };
  return { ok: true, keys, maxAge: maxAgeOf(header("cache-control") ?? undefined) };
}
