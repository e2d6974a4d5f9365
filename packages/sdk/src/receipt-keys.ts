// The service's published receipt keys (GET <baseUrl>/.well-known/jwks.json), fetched once per address and kept:
// a receipt is verified offline after the first fetch. A kid not among them refetches the set (at most every
// 30 s per address), so a key rotated in since the fetch is found and an unknown kid cannot make us hammer the
// service. node:crypto keys, no runtime dependency.
import { createPublicKey, type JsonWebKey, type KeyObject } from "node:crypto";
import { ServiceError } from "./errors";
import type { FetchLike } from "./transport";

export interface PublishedKey {
  key: KeyObject;
  /** The JWK's alg when it names one (the header's must then match). */
  alg?: string;
}

interface KeySet {
  keys: Map<string, PublishedKey>;
  fetchedAt: number;
}

const REFETCH_AFTER_MS = 30_000;
const FETCH_TIMEOUT_MS = 10_000;
const sets = new Map<string, Promise<KeySet>>();

function unavailable(url: string, cause: unknown): ServiceError {
  const message = `The receipt keys at ${url} could not be read: ${cause instanceof Error ? cause.message : String(cause)}`;
  return new ServiceError({
    code: "signature_verification_failed",
    status: 0,
    message,
    details: { reason: "jwks_unavailable", url },
    cause,
  });
}

async function fetchKeySet(url: string, fetchImpl: FetchLike): Promise<KeySet> {
  let body: { keys?: unknown };
  try {
    const res = await fetchImpl(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    body = (await res.json()) as { keys?: unknown };
  } catch (err) {
    throw unavailable(url, err);
  }
  const keys = new Map<string, PublishedKey>();
  for (const jwk of Array.isArray(body.keys) ? (body.keys as (JsonWebKey & { kid?: unknown; alg?: unknown })[]) : []) {
    if (typeof jwk.kid !== "string") continue;
    try {
      keys.set(jwk.kid, { key: createPublicKey({ key: jwk, format: "jwk" }), ...(typeof jwk.alg === "string" ? { alg: jwk.alg } : {}) });
    } catch {
      // a key this runtime cannot import verifies nothing here; the others still do
    }
  }
  return { keys, fetchedAt: Date.now() };
}

/** The published key `kid` at `url`, from the cache or a fresh fetch; null when the service does not publish it. */
export async function publishedKey(url: string, kid: string, fetchImpl: FetchLike): Promise<PublishedKey | null> {
  let pending = sets.get(url);
  if (!pending) {
    pending = fetchKeySet(url, fetchImpl);
    sets.set(url, pending);
  }
  let set = await pending.catch((err: unknown) => {
    sets.delete(url); // a failed fetch is not kept: the next receipt tries again
    throw err;
  });
  if (!set.keys.has(kid) && Date.now() - set.fetchedAt >= REFETCH_AFTER_MS) {
    if (sets.get(url) === pending) sets.set(url, fetchKeySet(url, fetchImpl));
    set = await sets.get(url)!.catch((err: unknown) => {
      sets.delete(url);
      throw err;
    });
  }
  return set.keys.get(kid) ?? null;
}

/** Forgets every fetched key set (tests; a long-running verifier never needs it). */
export function clearReceiptKeyCache(): void {
  sets.clear();
}
