// Verifying a receipt of the service (docs/receipts.md): a compact JWS (ES256, or EdDSA, with `kid` in its header)
// over the claims the contract fixes, signed by a key the service publishes at <baseUrl>/.well-known/jwks.json.
// Anyone holding a receipt (the payer, the merchant, a third party in a dispute) verifies it offline once the keys
// are fetched (receipt-keys.ts caches them). The issuer must be baseUrl. node:crypto only: no runtime dependency.
import { verify } from "node:crypto";
import { ServiceError } from "./errors";
import { publishedKey } from "./receipt-keys";
import type { FetchLike } from "./transport";

export { clearReceiptKeyCache } from "./receipt-keys";

/** Who paid, as the payment names them: an x402 signer's address, a card-network agent key, or a customer. */
export interface ReceiptPayer {
  type: "address" | "agent_key" | "customer";
  id: string;
}

/** A verified receipt's claims. */
export interface ServiceReceipt {
  iss: string;
  sub: string;
  iat: number;
  paymentIntentId: string;
  merchantId: string;
  livemode: boolean;
  /** Minor units captured. */
  amount: number;
  currency: string;
  source: string;
  /** null when the payment names no payer (a card paid without a customer). */
  payer: ReceiptPayer | null;
  orderId?: string;
  paidResourceId?: string;
  capturedAt: string;
}

export interface VerifyReceiptOptions {
  /** The service's address (its BASE_URL): the receipt's `iss`, and where its keys are published. */
  baseUrl: string;
  /** Another address of the key set (default `<baseUrl>/.well-known/jwks.json`). */
  jwksUrl?: string;
  fetch?: FetchLike;
}

/** The algorithms a receipt may be signed with, and how node:crypto verifies each (JWS ES256 is raw r || s). */
const ALGORITHMS: Record<string, { digest: string | null; dsaEncoding?: "ieee-p1363" }> = {
  ES256: { digest: "sha256", dsaEncoding: "ieee-p1363" },
  EdDSA: { digest: null },
};

function refused(reason: string, message: string): ServiceError {
  return new ServiceError({ code: "signature_verification_failed", status: 400, message, details: { reason } });
}

function decodePart(part: string): Record<string, unknown> {
  const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not a JSON object");
  return value as Record<string, unknown>;
}

function parse(jws: string) {
  const parts = typeof jws === "string" ? jws.split(".") : [];
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part)))
    throw refused("malformed", "A receipt is a compact JWS: three base64url parts joined by dots.");
  try {
    return { header: decodePart(parts[0]), claims: decodePart(parts[1]), signingInput: `${parts[0]}.${parts[1]}`, signature: parts[2] };
  } catch {
    throw refused("malformed", "The receipt's header or payload is not base64url JSON.");
  }
}

/**
 * Verifies a receipt (from `GET /v1/payment_intents/:id/receipt`, or carried by a protocol's answer) and answers its
 * claims. Throws a ServiceError `signature_verification_failed` whose `details.reason` says why: `malformed`,
 * `unsupported_algorithm`, `unknown_key` (a key the service does not publish), `bad_signature` (altered, or signed
 * by another key), `wrong_issuer`, or `jwks_unavailable` (the keys could not be fetched; status 0).
 */
export async function verifyReceipt(jws: string, options: VerifyReceiptOptions): Promise<ServiceReceipt> {
  const { header, claims, signingInput, signature } = parse(jws);
  const alg = typeof header.alg === "string" ? header.alg : "";
  const algorithm = Object.hasOwn(ALGORITHMS, alg) ? ALGORITHMS[alg] : undefined;
  if (!algorithm) throw refused("unsupported_algorithm", `Receipts are signed with ES256 or EdDSA, not ${alg || "no algorithm"}.`);
  if (typeof header.kid !== "string") throw refused("unknown_key", "The receipt's header names no key (kid).");
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const url = options.jwksUrl ?? `${baseUrl}/.well-known/jwks.json`;
  const published = await publishedKey(url, header.kid, options.fetch ?? fetch);
  if (!published) throw refused("unknown_key", `The service does not publish the key ${header.kid} (at ${url}).`);
  if (published.alg !== undefined && published.alg !== alg)
    throw refused("bad_signature", `Key ${header.kid} signs ${published.alg}, not ${alg}.`);
  let valid = false;
  try {
    const key = algorithm.dsaEncoding ? { key: published.key, dsaEncoding: algorithm.dsaEncoding } : published.key;
    valid = verify(algorithm.digest, Buffer.from(signingInput), key, Buffer.from(signature, "base64url"));
  } catch {
    // a key of another type than the algorithm's: not this receipt's signer
  }
  if (!valid) throw refused("bad_signature", "The receipt's signature does not match its content and key.");
  if (claims.iss !== baseUrl) throw refused("wrong_issuer", `The receipt was issued by ${String(claims.iss)}, not ${baseUrl}.`);
  if (typeof claims.paymentIntentId !== "string" || claims.sub !== claims.paymentIntentId)
    throw refused("malformed", "The receipt's sub and paymentIntentId disagree.");
  return claims as unknown as ServiceReceipt;
}
