// ACP request signing (docs/acp.md "Request signing"; ACP checkout RFC sections 2.1 and 7, delegate-payment RFC
// section 2.2): the agent platform signs each request with its private key, a detached signature base64url-encoded
// in `Signature`, with an RFC 3339 `Timestamp`. ACP leaves the algorithm and the exact signed bytes to the server
// ("published out-of-band"); this service publishes them here and in docs/acp.md:
//  - algorithms: Ed25519, or ES256 (P-256, the 64-byte r||s signature), the two the delegate-payment RFC names;
//  - signed bytes: the canonical JSON (lib/canonical-json.ts: keys sorted, no whitespace) of
//    `{ body, method, path, timestamp }`: the parsed request body (null without one), the HTTP method, the path
//    (`/acp/checkout_sessions/...`) and the Timestamp header's text, so a signature is bound to its request;
//  - freshness: Timestamp within MAX_SKEW_SECONDS of the service's clock (a replay within it is the same
//    request: its Idempotency-Key answers it).
// Verified only while the merchant has an unrevoked key in this mode (lib/acp/signing-keys.ts); otherwise requests
// are accepted as before. Refusals are 401 in ACP's flat shape: signature_required, invalid_timestamp,
// invalid_signature. The check is part of ACP's authentication step (lib/acp/http.ts), before the Idempotency-Key
// is claimed: the keys are read inside the API-key statement (SIGNING_KEYS), so a refused request claims and stores
// nothing, and its key stays free for the genuine request.
import { createPublicKey, verify, type KeyObject } from "node:crypto";
import { canonicalJson } from "../canonical-json";
import { callerStatement, type CallerQuery } from "../db";
import { DomainError } from "../errors";
import type { SigningJwk } from "./signing-keys";

export const MAX_SKEW_SECONDS = 300;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;
const BASE64URL = /^[A-Za-z0-9_-]{1,256}={0,2}$/;

/** The bytes an agent platform signs (and this service verifies) for one request. */
export function signingInput(method: string, path: string, timestamp: string, body: unknown): Buffer {
  return Buffer.from(canonicalJson({ body: body ?? null, method: method.toUpperCase(), path, timestamp }), "utf8");
}

/** The row of SIGNING_KEYS: the public JWKs of the caller's unrevoked ACP signing keys (none: `[]`). */
export interface SigningKeysRow {
  acp_signing_jwks: SigningJwk[] | null;
}

/** The caller's unrevoked signing keys, a caller statement (lib/db.ts): run inside the API-key statement. */
const SIGNING_KEYS = callerStatement<SigningKeysRow>("acp_signing_keys_of_caller", 0, {
  select: `SELECT (SELECT COALESCE(json_agg(s.public_jwk), '[]'::json) FROM acp_signing_keys s, caller
                    WHERE s.merchant_id = caller.merchant_id AND s.livemode = caller.livemode AND s.revoked_at IS NULL
                  ) AS acp_signing_jwks`,
});

export const signingKeysQuery: CallerQuery<SigningKeysRow> = { statement: SIGNING_KEYS, values: [] };

/**
 * Refuses the request unless it is signed by one of `keys`, the merchant's ACP signing keys (when it has any).
 * `rawBody`: the body's text as received (undefined without one, or when it could not be read); a body that is not
 * JSON cannot be what was signed.
 */
export function verifyRequestSignature(keys: SigningJwk[], req: Request, rawBody: string | undefined): void {
  if (keys.length === 0) return;
  const signature = req.headers.get("signature");
  const timestamp = req.headers.get("timestamp");
  if (!signature || !timestamp)
    throw refusal("signature_required", "This merchant requires signed ACP requests: send Signature and Timestamp.");
  checkFresh(timestamp);
  if (!BASE64URL.test(signature)) throw refusal("invalid_signature", "The Signature header is not base64url.");
  const data = signingInput(req.method, new URL(req.url).pathname, timestamp, signedBody(rawBody));
  const bytes = Buffer.from(signature, "base64url");
  if (!keys.some((jwk) => verifiesWith(jwk, data, bytes))) {
    throw refusal("invalid_signature", "The Signature does not verify with any of the merchant's ACP signing keys.");
  }
}

/** The parsed body the signature covers (null without one); a body that is not JSON cannot verify. */
function signedBody(rawBody: string | undefined): unknown {
  if (!rawBody) return null;
  try {
    return JSON.parse(rawBody) as unknown;
  } catch {
    throw refusal("invalid_signature", "The request body is not JSON, so no signature over it can verify.");
  }
}

function checkFresh(timestamp: string): void {
  const at = RFC3339.test(timestamp) ? Date.parse(timestamp) : NaN;
  if (Number.isNaN(at)) throw refusal("invalid_timestamp", "The Timestamp header must be an RFC 3339 date-time.");
  if (Math.abs(Date.now() - at) > MAX_SKEW_SECONDS * 1000) {
    throw refusal("invalid_timestamp", `The Timestamp is more than ${MAX_SKEW_SECONDS} seconds from the server's clock.`);
  }
}

function verifiesWith(jwk: SigningJwk, data: Buffer, signature: Buffer): boolean {
  const key: KeyObject = createPublicKey({ key: { ...jwk }, format: "jwk" });
  try {
    if (jwk.kty === "OKP") return verify(null, data, key, signature);
    return verify("sha256", data, { key, dsaEncoding: "ieee-p1363" }, signature);
  } catch {
    return false; // a signature of the wrong length for the key
  }
}

/** 401 as ACP's flat error (the `acp` details lib/acp/http.ts answers with; not imported: it imports this module). */
function refusal(code: string, message: string): DomainError {
  return new DomainError("UNAUTHORIZED", message, { acp: { type: "invalid_request", code, status: 401 } });
}
