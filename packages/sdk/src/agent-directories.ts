// The key directories of agent operators, as verifyAgentRequest fetches and caches them itself (docs/sdk.md "Verify
// agent requests"): `GET <origin>/.well-known/http-message-signatures-directory`, no redirect, at most 64 KiB and
// 3 s; the JWKS's Ed25519 and RSA keys (at most 32), keyids computed here (a directory's `kid` is not trusted). The
// response's own signatures (the Web Bot Auth directory draft: tag `http-message-signatures-directory`, covering
// `"@authority";req`, one per key) must verify: a key without its own valid signature is dropped, and any signature
// that fails refuses the whole directory. Kept per process for the answer's max-age (none: 300 s; at most a day);
// an unknown keyid refetches, at most once per `refetchIntervalSeconds` (60), which is also how long a failure is
// remembered; at most 100 directories are kept.
import {
  algMatches,
  contentDigestMatches,
  MalformedSignatureError,
  parseMessageSignatures,
  signatureBaseOf,
  signatureVerifies,
  verificationKeyOf,
  type AgentVerificationKey,
  type SignedMessage,
} from "./agent-message-signature";
import type { FetchLike } from "./transport";

export const DIRECTORY_PATH = "/.well-known/http-message-signatures-directory";
const DIRECTORY_TAG = "http-message-signatures-directory";
const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 3_000;
const MAX_KEYS = 32;
const MAX_DIRECTORIES = 100;
const DEFAULT_MAX_AGE = 300;
const MAX_AGE_CAP = 86_400;
const SKEW_SECONDS = 5;

export interface DirectoryOptions {
  fetch: FetchLike;
  refetchIntervalSeconds: number;
  /** Accept a directory without its own signatures (not the draft's way; default false). */
  allowUnsignedDirectories: boolean;
}

interface Directory {
  keys: Map<string, AgentVerificationKey>;
  failed: boolean;
  freshUntil: number;
  fetchedAt: number;
}

const directories = new Map<string, Directory>();
const inFlight = new Map<string, Promise<Directory>>();

/** Forgets every fetched directory (tests; a long-running verifier never needs it). */
export function clearAgentDirectoryCache(): void {
  directories.clear();
  inFlight.clear();
}

async function readCapped(res: Response): Promise<Uint8Array | null> {
  if (!res.body) return new Uint8Array(await res.arrayBuffer());
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BYTES) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function maxAgeOf(cacheControl: string | null): number {
  const m = /(?:^|,)\s*max-age=(\d+)/i.exec(cacheControl ?? "");
  return Math.min(m ? Number(m[1]) : DEFAULT_MAX_AGE, MAX_AGE_CAP);
}

/** The listed keys that signed the response (each by its own signature), or null when any signature fails. */
async function signedKeys(keys: AgentVerificationKey[], url: URL, res: Response, body: Uint8Array): Promise<AgentVerificationKey[] | null> {
  const input = res.headers.get("signature-input");
  const signature = res.headers.get("signature");
  if (!input || !signature) return null;
  let all;
  try {
    all = parseMessageSignatures(input, signature).filter((s) => s.params.get("tag") === DIRECTORY_TAG);
  } catch (err) {
    if (err instanceof MalformedSignatureError) return null;
    throw err;
  }
  const message: SignedMessage = {
    method: "GET",
    scheme: url.protocol.slice(0, -1),
    authority: url.host,
    path: url.pathname,
    query: "",
    header: (n) => res.headers.get(n),
  };
  const byKeyid = new Map(keys.map((k) => [k.keyid, k]));
  const now = Math.floor(Date.now() / 1000);
  const signed = new Map<string, AgentVerificationKey>();
  for (const sig of all) {
    const key = byKeyid.get(String(sig.params.get("keyid")));
    const created = sig.params.get("created");
    const expires = sig.params.get("expires");
    if (!key || !sig.components.some((c) => c.name === "@authority" && c.params.get("req") === true)) return null;
    if (typeof created !== "number" || typeof expires !== "number" || created > now + SKEW_SECONDS || expires <= now) return null;
    if (!algMatches(key.algorithm, sig.params.get("alg"))) return null;
    if (sig.components.some((c) => c.name === "content-digest") && !(await contentDigestMatches(res.headers.get("content-digest"), body)))
      return null;
    const base = signatureBaseOf(message, sig);
    if (base === null || !(await signatureVerifies(base, sig.signature, key))) return null;
    signed.set(key.keyid, key);
  }
  return signed.size > 0 ? [...signed.values()] : null;
}

async function fetchDirectory(origin: string, options: DirectoryOptions): Promise<Directory> {
  const url = new URL(DIRECTORY_PATH, origin);
  const now = Date.now();
  const failure: Directory = { keys: new Map(), failed: true, freshUntil: now + options.refetchIntervalSeconds * 1000, fetchedAt: now };
  try {
    const res = await options.fetch(url.toString(), {
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { accept: "application/http-message-signatures-directory+json, application/json" },
    });
    if (res.status !== 200) return failure;
    const body = await readCapped(res);
    if (!body) return failure;
    const parsed = JSON.parse(new TextDecoder().decode(body)) as { keys?: unknown };
    const listed = Array.isArray(parsed.keys) ? parsed.keys.slice(0, MAX_KEYS) : [];
    const keys = (await Promise.all(listed.map(verificationKeyOf))).filter((k): k is AgentVerificationKey => k !== null);
    const usable = options.allowUnsignedDirectories && !res.headers.get("signature") ? keys : await signedKeys(keys, url, res, body);
    if (!usable) return failure;
    return {
      keys: new Map(usable.map((k) => [k.keyid, k])),
      failed: false,
      freshUntil: now + maxAgeOf(res.headers.get("cache-control")) * 1000,
      fetchedAt: now,
    };
  } catch {
    return failure;
  }
}

function remember(origin: string, directory: Directory) {
  directories.delete(origin);
  directories.set(origin, directory);
  while (directories.size > MAX_DIRECTORIES) directories.delete(directories.keys().next().value as string);
}

function fetchOnce(origin: string, options: DirectoryOptions): Promise<Directory> {
  let pending = inFlight.get(origin);
  if (!pending) {
    pending = fetchDirectory(origin, options).then((fetched) => {
      // a fresh directory survives a failed refetch
      const kept = directories.get(origin);
      const result =
        fetched.failed && kept && !kept.failed && kept.freshUntil > Date.now() ? { ...kept, fetchedAt: fetched.fetchedAt } : fetched;
      remember(origin, result);
      return result;
    });
    inFlight.set(origin, pending);
    void pending.finally(() => inFlight.delete(origin));
  }
  return pending;
}

/** The operator's key `keyid`: "unavailable" (fetch or directory signature failed) or "unknown" when not listed. */
export async function directoryKey(
  origin: string,
  keyid: string,
  options: DirectoryOptions,
): Promise<AgentVerificationKey | "unavailable" | "unknown"> {
  let directory = directories.get(origin);
  const now = Date.now();
  if (!directory || directory.freshUntil <= now) directory = await fetchOnce(origin, options);
  else if (!directory.keys.has(keyid) && now - directory.fetchedAt >= options.refetchIntervalSeconds * 1000)
    directory = await fetchOnce(origin, options);
  if (directory.failed) return "unavailable";
  return directory.keys.get(keyid) ?? "unknown";
}
