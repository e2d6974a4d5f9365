// AP2 v0.2 mandate chains (docs/a2a.md "AP2 v0.2"; the AP2 specification's agent authorization, Delegate SD-JWT): two
// SD-JWTs joined by "~~". The root is signed by the buyer's key (a payer's registered AP2 user key, its thumbprint
// as `kid`) and discloses one mandate in `delegate_payload` whose `cnf.jwk` is the shopping agent's key; the
// terminal hop (`typ: kb+sd-jwt`) is signed by that key and carries the key binding: `aud` (this merchant agent),
// `nonce` (the checkout's), `iat`, `sd_hash` (of the root as presented) and the closed mandate in its own
// `delegate_payload`. @sd-jwt/core does the SD-JWT work (signatures, disclosures, exp); this file walks the chain.
import { SDJwt, SDJwtInstance } from "@sd-jwt/core";
import { digest, ES256 } from "@sd-jwt/crypto-nodejs";
import { DomainError } from "../../errors";

export const hasher = (data: string | ArrayBuffer, alg = "sha-256") => digest(data, alg);
const SKEW_SECONDS = 60;
/** How old a key binding may be: a presentation is made for one payment, now. */
const KB_MAX_AGE_SECONDS = 300;

/** base64url(SHA-256(ascii text)): sd_hash, checkout_hash and receipt `reference` are all this. */
export function hashOf(text: string): string {
  return Buffer.from(hasher(text)).toString("base64url");
}

/** AP2's error codes (agent_authorization.md "Errors") with our reason; 402, nothing charged. */
export type Ap2ErrorCode = "invalid_credential" | "invalid_mandate" | "unresolved_constraint";

export function refused(ap2Error: Ap2ErrorCode, reason: string, message: string): DomainError {
  return new DomainError("PAYMENT_DECLINED", `${message} Nothing was charged.`, { reason, ap2_error: ap2Error });
}

export interface VerifiedChain {
  /** The mandate the buyer's key signed (open: with constraints; or closed, human present). */
  root: Record<string, unknown>;
  /** The closed mandate the agent's key bound to this payment. */
  closed: Record<string, unknown>;
  /** The buyer key's id (kid) and the root's issuer-signed JWT hash: the open mandate's identity across uses. */
  kid: string;
  rootId: string;
  /** sd_hash of the root as presented (an open payment mandate's payment.reference names its checkout's this way). */
  rootSdHash: string;
  /** Hash of the final SD-JWT of the chain (the receipts' `reference`). */
  reference: string;
}

export interface ChainExpectations {
  /** The buyer's public key for a root `kid`, or null (unknown or revoked). */
  rootKey: (kid: string) => Promise<JsonWebKey | null>;
  audience: string;
  nonce: string;
  label: "checkout_mandate" | "payment_mandate";
}

function objectOf(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Every digest an SD-JWT's payload and disclosures reference (`_sd` entries and `{"...": digest}` elements). */
function referencedDigests(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const v of value) referencedDigests(v, into);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "_sd" && Array.isArray(v)) v.forEach((d) => typeof d === "string" && into.add(d));
      else if (k === "..." && typeof v === "string") into.add(v);
      else referencedDigests(v, into);
    }
  }
  return into;
}

/** An altered or foreign disclosure hashes to nothing the signed payload references: the library skips it, we refuse. */
async function checkDisclosures(sdJwt: string, label: string): Promise<void> {
  const decoded = await SDJwt.fromEncode(sdJwt, hasher);
  const alg = (decoded.jwt?.payload?._sd_alg as string | undefined) ?? "sha-256";
  const refs = referencedDigests(decoded.jwt?.payload);
  for (const d of decoded.disclosures ?? []) referencedDigests(d.value, refs);
  for (const d of decoded.disclosures ?? []) {
    if (!refs.has(await d.digest({ hasher, alg })))
      throw refused("invalid_credential", "altered_disclosure", `The ${label} carries a disclosure its signer did not sign.`);
  }
}

async function verifySdJwt(sdJwt: string, key: JsonWebKey) {
  const verifier = new SDJwtInstance({ verifier: await ES256.getVerifier(key), hasher, signAlg: ES256.alg });
  return verifier.verify(sdJwt, { skewSeconds: SKEW_SECONDS });
}

/** The one mandate a hop's delegate_payload discloses. */
function delegated(payload: unknown, label: string): Record<string, unknown> {
  const items = (objectOf(payload)?.delegate_payload as unknown[] | undefined)?.map(objectOf).filter((i) => i && !("..." in i));
  if (!items || items.length !== 1)
    throw refused("invalid_credential", "invalid_delegate_payload", `The ${label}'s delegate_payload must disclose exactly one mandate.`);
  return items[0]!;
}

function checkTimes(claims: Record<string, unknown>, now: number, label: string): void {
  if (typeof claims.exp === "number" && claims.exp + SKEW_SECONDS < now)
    throw refused("invalid_mandate", "mandate_expired", `The ${label} has expired (exp).`);
  if (typeof claims.iat === "number" && claims.iat - SKEW_SECONDS > now)
    throw refused("invalid_credential", "issued_in_future", `The ${label} is issued in the future (iat).`);
}

export async function verifyChain(chain: string, x: ChainExpectations): Promise<VerifiedChain> {
  const cut = chain.indexOf("~~");
  if (cut < 0 || chain.indexOf("~~", cut + 2) >= 0)
    throw refused(
      "invalid_credential",
      "invalid_chain",
      `The ${x.label} must be a two-token chain: <buyer-signed SD-JWT>~<agent-signed KB-SD-JWT> (joined by "~~").`,
    );
  const rootSdJwt = chain.slice(0, cut + 1);
  const hopSdJwt = chain.slice(cut + 2);
  let header: Record<string, unknown>;
  try {
    header = (await SDJwt.extractJwt(rootSdJwt)).header ?? {};
  } catch {
    throw refused("invalid_credential", "invalid_chain", `The ${x.label}'s first token is not an SD-JWT.`);
  }
  const kid = typeof header.kid === "string" ? header.kid : "";
  const buyerKey = kid ? await x.rootKey(kid) : null;
  if (!buyerKey)
    throw refused("invalid_credential", "unknown_buyer_key", `The ${x.label} is not signed by a registered AP2 buyer key (kid).`);
  const now = Math.floor(Date.now() / 1000);
  let rootPayload: unknown;
  try {
    rootPayload = (await verifySdJwt(rootSdJwt, buyerKey)).payload;
  } catch (err) {
    if (/expired/i.test((err as Error).message)) throw refused("invalid_mandate", "mandate_expired", `The ${x.label} has expired (exp).`);
    throw refused("invalid_credential", "invalid_signature", `The ${x.label} does not verify with the buyer's key.`);
  }
  await checkDisclosures(rootSdJwt, x.label);
  const root = delegated(rootPayload, x.label);
  checkTimes(root, now, x.label);
  const agentKey = objectOf(objectOf(root.cnf)?.jwk);
  if (!agentKey) throw refused("invalid_credential", "missing_cnf", `The ${x.label}'s signed mandate has no cnf.jwk (the agent's key).`);

  let hop: Awaited<ReturnType<typeof verifySdJwt>>;
  try {
    hop = await verifySdJwt(hopSdJwt, agentKey as JsonWebKey);
  } catch {
    throw refused("invalid_credential", "invalid_key_binding", `The ${x.label}'s key binding is not signed by the mandate's cnf key.`);
  }
  const kb = objectOf(hop.payload) ?? {};
  const bad = (what: string) => refused("invalid_credential", "invalid_key_binding", `The ${x.label}'s key binding ${what}.`);
  if (hop.header?.typ !== "kb+sd-jwt") throw bad("must have typ kb+sd-jwt");
  if (kb.sd_hash !== hashOf(rootSdJwt)) throw bad("does not match the mandate as presented (sd_hash)");
  if (kb.aud !== x.audience) throw bad(`is for another audience (aud must be ${x.audience})`);
  if (kb.nonce !== x.nonce) throw bad("carries another nonce than the checkout's");
  if (typeof kb.iat !== "number" || kb.iat < now - KB_MAX_AGE_SECONDS || kb.iat > now + SKEW_SECONDS)
    throw bad(`must be issued now (iat within ${KB_MAX_AGE_SECONDS} s)`);
  await checkDisclosures(hopSdJwt, x.label);
  const closed = delegated(hop.payload, x.label);
  if ("cnf" in closed) throw bad("is not terminal (its mandate carries cnf)");
  checkTimes(closed, now, x.label);
  return {
    root,
    closed,
    kid,
    rootId: hashOf(rootSdJwt.slice(0, rootSdJwt.indexOf("~"))),
    rootSdHash: kb.sd_hash as string,
    reference: hashOf(hopSdJwt),
  };
}
