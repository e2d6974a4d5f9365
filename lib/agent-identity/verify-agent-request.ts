// THE agent verifier of both card networks (docs/cards.md "Verification"): one RFC 9421 signature of a request,
// checked against every rule in a fixed order, each refusal with its own reason code:
//
//   headers present (missing_signature) -> parse (malformed_signature) -> a signature with this network's tag
//   (unsupported_tag), the operation's tag (tag_operation_mismatch) -> covered components and parameters
//   (missing_field) -> expires - created <= 480 s (window_too_long), created not in the future beyond the skew
//   (not_yet_valid), expires not passed (expired) -> the authority is ours (authority_mismatch) -> the
//   Signature-Agent names one of OUR agents or a trusted foreign operator (unknown_agent) -> the key is
//   registered (unknown_key), not revoked (revoked_key), verified (agent_not_verified) -> the signature verifies
//   (bad_signature) -> the nonce is new (replayed_nonce).
//
// Foreign operators (docs/cards.md "Foreign agent operators"): a Signature-Agent naming another origin is looked
// up in that operator's key directory when AGENT_DIRECTORIES_TRUSTED trusts it (else unknown_agent), fetched
// and cached by directory-cache.ts (directory_unavailable, unknown_key). Keys are Ed25519 or RSA-PSS-SHA512, the
// algorithm the key's (algorithm_mismatch for an `alg` naming another). A covered content-digest must match the
// body (content_digest_mismatch), checked before any key is looked up.
//
// The nonce is spent last, by an INSERT whose primary key (network, keyid, nonce) lets it succeed once in any
// process, inside the caller's transaction: two parallel requests with one nonce cannot both pass, and a request
// whose signature is invalid cannot burn someone else's nonce.
import type { Db } from "../db";
import type { AgentKey } from "../generated/prisma/client";
import { contentDigestMatches } from "./content-digest";
import { foreignKey } from "./directory-cache";
import { foreignOperatorOf, isTrustedOperator } from "./foreign-operator";
import {
  MalformedSignature,
  parseSignatures,
  signatureAgentUrl,
  signatureBase,
  type ParsedSignature,
  type SignedRequest,
} from "./message-signature";
import { CLOCK_SKEW_SECONDS, MAX_WINDOW_SECONDS, PROFILES, REQUIRED_PARAMS, type Network, type Operation } from "./profiles";
import type { RefusalReason } from "./reasons";
import { algClaimMatches, verificationKeyOf, verifyWithKey, type VerificationKey } from "./verification-keys";

export interface VerifyOptions {
  network: Network;
  operation: Operation;
  livemode: boolean;
  /** Our own origin (BASE_URL): the only place a Signature-Agent may point to. */
  ownOrigin: string;
  /**
   * The authority the request must have been addressed to; null when the caller has no expectation (POST
   * /…/verify: the merchant's own server received the request, its URL names the authority).
   */
  expectedAuthority: string | null;
  /** Seconds since the epoch (tests pass a fixed clock). */
  now?: number;
  /** The signature must cover content-digest (a payment under AGENT_PAYMENTS_REQUIRE_CONTENT_DIGEST). */
  requireContentDigest?: boolean;
}

export interface VerifiedAgent {
  ok: true;
  /** The agent key registered here; null for a foreign operator's agent. */
  key: AgentKey | null;
  /** The key the signature verified with (its algorithm the key's own). */
  verificationKey: VerificationKey;
  /** The foreign agent operator's origin (docs/cards.md "Foreign agent operators"); null for a key registered here. */
  operator: string | null;
  tag: string;
  label: string;
  keyid: string;
  nonce: string;
  created: number;
  expires: number;
  signatureAgent: string | null;
}

export type Verification = VerifiedAgent | { ok: false; reason: RefusalReason };

type Refusal = { ok: false; reason: RefusalReason };
const refuse = (reason: RefusalReason): Refusal => ({ ok: false, reason });

/** The policy checks that need neither the database nor the key (exported for the unit tests). */
export function checkSignaturePolicy(
  req: SignedRequest,
  options: Pick<VerifyOptions, "network" | "operation" | "expectedAuthority" | "now">,
): { ok: true; sig: ParsedSignature } | { ok: false; reason: RefusalReason } {
  const input = req.header("signature-input");
  const signature = req.header("signature");
  if (!input || !signature) return { ok: false, reason: "missing_signature" };
  let all: ParsedSignature[];
  try {
    all = parseSignatures(input, signature);
  } catch (err) {
    if (err instanceof MalformedSignature) return { ok: false, reason: "malformed_signature" };
    throw err;
  }
  const profile = PROFILES[options.network];
  // The signature is chosen by its tag, never by its label (Visa's examples use sig2, Web Bot Auth's sig1).
  const ours = all.filter((s) => profile.tags.includes(String(s.params.get("tag") ?? "")));
  if (ours.length === 0) return { ok: false, reason: "unsupported_tag" };
  const allowed = profile.tagsFor[options.operation];
  const sig = ours.find((s) => allowed.includes(String(s.params.get("tag"))));
  if (!sig) return { ok: false, reason: "tag_operation_mismatch" };

  const covered = new Set(sig.components.map((c) => c.name));
  for (const name of profile.components[options.operation]) if (!covered.has(name)) return { ok: false, reason: "missing_field" };
  for (const name of REQUIRED_PARAMS) if (sig.params.get(name) === undefined) return { ok: false, reason: "missing_field" };
  const created = sig.params.get("created");
  const expires = sig.params.get("expires");
  if (
    !Number.isInteger(created) ||
    !Number.isInteger(expires) ||
    typeof sig.params.get("keyid") !== "string" ||
    typeof sig.params.get("nonce") !== "string"
  ) {
    return { ok: false, reason: "malformed_signature" };
  }
  if ((sig.params.get("nonce") as string).length === 0 || (sig.params.get("nonce") as string).length > 512)
    return { ok: false, reason: "malformed_signature" };
  // A Signature-Agent sent along must be covered (Web Bot Auth), and Mastercard's profile requires one.
  if (req.header("signature-agent") !== null && !covered.has("signature-agent")) return { ok: false, reason: "missing_field" };

  const now = options.now ?? Math.floor(Date.now() / 1000);
  const c = created as number;
  const e = expires as number;
  if (e < c || e - c > MAX_WINDOW_SECONDS) return { ok: false, reason: "window_too_long" };
  if (c > now + CLOCK_SKEW_SECONDS) return { ok: false, reason: "not_yet_valid" };
  if (e <= now) return { ok: false, reason: "expired" };
  if (options.expectedAuthority !== null && req.authority.toLowerCase() !== options.expectedAuthority.toLowerCase()) {
    return { ok: false, reason: "authority_mismatch" };
  }
  return { ok: true, sig };
}

const AGENT_PATH = /^\/mastercard\/agents\/(agk_[0-9A-Za-z]{1,64})(?:\/directory)?\/?$/;
const DIRECTORY_PATHS = new Set([
  "",
  "/",
  "/.well-known/http-message-signatures-directory",
  "/mastercard/.well-known/http-message-signatures-directory",
]);

/** Which of our agents a Signature-Agent URL names: an agent id, the whole directory, or not ours (never fetched). */
function resolveSignatureAgent(url: string, ownOrigin: string): { kind: "agent"; id: string } | { kind: "directory" } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.origin !== new URL(ownOrigin).origin || parsed.search || parsed.hash) return null;
  const agent = AGENT_PATH.exec(parsed.pathname);
  if (agent) return { kind: "agent", id: agent[1] };
  return DIRECTORY_PATHS.has(parsed.pathname) ? { kind: "directory" } : null;
}

interface Signer {
  ok: true;
  /** The agent key registered here; null for a foreign operator's key. */
  key: AgentKey | null;
  verificationKey: VerificationKey;
  operator: string | null;
  signatureAgent: string | null;
}

/** A registered key of the network and mode, checked as it is (status, the agent the Signature-Agent names). */
async function registeredSigner(db: Db, keyid: string, options: VerifyOptions, agentId: string | null, signatureAgent: string | null) {
  const key = await db.agentKey.findFirst({ where: { network: options.network, livemode: options.livemode, keyid } });
  if (!key || (agentId !== null && key.id !== agentId)) return refuse(agentId !== null && !key ? "unknown_agent" : "unknown_key");
  if (key.status === "revoked") return refuse("revoked_key");
  if (key.status !== "active") return refuse("agent_not_verified");
  const verificationKey = verificationKeyOf(key.jwk);
  if (!verificationKey) return refuse("unknown_key");
  return { ok: true as const, key, verificationKey, operator: null, signatureAgent };
}

/** A trusted foreign operator's key, from its directory (directory-cache.ts). */
async function foreignSigner(operator: string, keyid: string, signatureAgent: string): Promise<Signer | Refusal> {
  if (!isTrustedOperator(operator)) return refuse("unknown_agent");
  const found = await foreignKey(operator, keyid);
  if (!found.ok) return refuse(found.reason);
  return { ok: true, key: null, verificationKey: found.key, operator, signatureAgent };
}

/** Who signed: a foreign operator's key when the Signature-Agent names one, else a key registered here. */
async function resolveSigner(db: Db, req: SignedRequest, sig: ParsedSignature, options: VerifyOptions): Promise<Signer | Refusal> {
  const keyid = sig.params.get("keyid") as string;
  const header = req.header("signature-agent");
  const required = PROFILES[options.network].signatureAgent;
  if (!required && header === null) return registeredSigner(db, keyid, options, null, null);
  const signatureAgent = signatureAgentUrl(header, sig.label);
  if (signatureAgent === null) return refuse(header === null ? "missing_field" : "unknown_agent");
  const operator = foreignOperatorOf(signatureAgent, options.ownOrigin);
  if (operator !== null) return foreignSigner(operator, keyid, signatureAgent);
  if (!required) return registeredSigner(db, keyid, options, null, null); // TAP: our own Signature-Agent adds nothing
  const resolved = resolveSignatureAgent(signatureAgent, options.ownOrigin);
  if (!resolved) return refuse("unknown_agent");
  return registeredSigner(db, keyid, options, resolved.kind === "agent" ? resolved.id : null, signatureAgent);
}

/** The body rules (RFC 9530): a covered content-digest matches the body; payments may be required to cover one. */
function bodyRefusal(req: SignedRequest, sig: ParsedSignature, options: VerifyOptions): Refusal | null {
  const covered = sig.components.some((c) => c.name === "content-digest");
  if (!covered) return options.requireContentDigest ? refuse("missing_field") : null;
  if (req.body === null || req.body === undefined) return refuse("content_digest_mismatch");
  return contentDigestMatches(req.header("content-digest"), req.body) ? null : refuse("content_digest_mismatch");
}

export async function verifyAgentRequest(db: Db, req: SignedRequest, options: VerifyOptions): Promise<Verification> {
  const policy = checkSignaturePolicy(req, options);
  if (!policy.ok) return policy;
  const { sig } = policy;
  const keyid = sig.params.get("keyid") as string;
  const nonce = sig.params.get("nonce") as string;
  const created = sig.params.get("created") as number;
  const expires = sig.params.get("expires") as number;

  const bodyProblem = bodyRefusal(req, sig, options);
  if (bodyProblem) return bodyProblem;
  const signer = await resolveSigner(db, req, sig, options);
  if (!signer.ok) return signer;
  // The algorithm is the key's (its kty and crv); an `alg` parameter naming another one refuses the signature.
  if (!algClaimMatches(signer.verificationKey.algorithm, sig.params.get("alg"))) return refuse("algorithm_mismatch");

  const base = signatureBase(req, sig);
  if (base === null) return refuse("missing_field");
  if (!verifyWithKey(base, sig.signature, signer.verificationKey)) return refuse("bad_signature");

  const spent = await db.$queryRaw<{ nonce: string }[]>`
    INSERT INTO agent_nonces (network, keyid, nonce, expires_at)
    VALUES (${options.network}, ${keyid}, ${nonce}, ${new Date((expires + MAX_WINDOW_SECONDS) * 1000)})
    ON CONFLICT DO NOTHING RETURNING nonce`;
  if (!spent[0]) return refuse("replayed_nonce");

  const { key, verificationKey, operator, signatureAgent } = signer;
  return {
    ok: true,
    key,
    verificationKey,
    operator,
    tag: String(sig.params.get("tag")),
    label: sig.label,
    keyid,
    nonce,
    created,
    expires,
    signatureAgent,
  };
}
