// Signing a card-network agent's requests (docs/cards.md "SDK"): RFC 9421 HTTP Message Signatures with an Ed25519
// key, in the two profiles the service verifies. Strict RFC 9421 output (lower-case `keyid`, `alg="ed25519"`, no
// spaces), node:crypto only.
//
//   Web Bot Auth (Mastercard Agent Pay): tag "web-bot-auth", the Signature-Agent dictionary field covered.
//   Key registration (proof of possession): tag "agent-key-registration", the challenge as the nonce.
//   Visa Trusted Agent Protocol: tag "agent-browser-auth" (reads) / "agent-payer-auth" (payments), label sig2,
//   covering @authority and @path; body objects (agenticPaymentContainer) signed by the same key and nonce.
import { createHash, createPrivateKey, randomBytes, sign } from "node:crypto";

export interface AgentPrivateJwk {
  kty: "OKP";
  crv: "Ed25519";
  x: string;
  d: string;
}

export interface AgentSignOptions {
  method: string;
  url: string;
  privateJwk: AgentPrivateJwk;
  tag: "web-bot-auth" | "agent-browser-auth" | "agent-payer-auth" | "credential-request" | "agent-key-registration";
  /** Web Bot Auth: the agent's identity URL (sent as `Signature-Agent: <label>="<url>"` and covered). */
  signatureAgent?: string;
  label?: string;
  /** Default: @authority and @path (plus the Signature-Agent member, and @method for Web Bot Auth). */
  components?: string[];
  nonce?: string;
  /** Unix seconds; default now. */
  created?: number;
  /** Default created + 300 (at most 480 is accepted). */
  expires?: number;
}

export interface AgentSignature {
  headers: Record<string, string>;
  keyid: string;
  nonce: string;
}

/** RFC 7638 thumbprint of an Ed25519 JWK: the keyid. */
export function agentKeyId(jwk: { crv: string; kty: string; x: string }): string {
  return createHash("sha256")
    .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x }))
    .digest("base64url");
}

function keyOf(jwk: AgentPrivateJwk) {
  return createPrivateKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, d: jwk.d }, format: "jwk" });
}

export function signAgentRequest(options: AgentSignOptions): AgentSignature {
  const url = new URL(options.url);
  const label = options.label ?? (options.tag === "web-bot-auth" ? "sig1" : "sig2");
  const keyid = agentKeyId(options.privateJwk);
  const nonce = options.nonce ?? randomBytes(64).toString("base64");
  const created = options.created ?? Math.floor(Date.now() / 1000);
  const expires = options.expires ?? created + 300;
  const headers: Record<string, string> = {};
  const ids: string[] = [];
  const lines: string[] = [];
  const defaults = options.signatureAgent ? ["@authority", "@method", "@path"] : ["@authority", "@path"];
  for (const name of options.components ?? defaults) {
    const value =
      name === "@authority"
        ? url.host
        : name === "@path"
          ? url.pathname
          : name === "@method"
            ? options.method.toUpperCase()
            : name === "@query"
              ? `?${url.search.slice(1)}`
              : null;
    if (value === null) throw new Error(`signAgentRequest: unsupported component ${name}`);
    ids.push(JSON.stringify(name));
    lines.push(`${JSON.stringify(name)}: ${value}`);
  }
  if (options.signatureAgent) {
    const member = JSON.stringify(options.signatureAgent);
    headers["Signature-Agent"] = `${label}=${member}`;
    // The whole field is covered (as the stock web-bot-auth signer does, so its verifier accepts ours); the
    // service also verifies the draft's member form `"signature-agent";key="<label>"`.
    ids.push(`"signature-agent"`);
    lines.push(`"signature-agent": ${label}=${member}`);
  }
  const params = `(${ids.join(" ")});created=${created};expires=${expires};keyid="${keyid}";alg="ed25519";nonce="${nonce}";tag="${options.tag}"`;
  lines.push(`"@signature-params": ${params}`);
  const signature = sign(null, Buffer.from(lines.join("\n"), "utf8"), keyOf(options.privateJwk)).toString("base64");
  headers["Signature-Input"] = `${label}=${params}`;
  headers.Signature = `${label}=:${signature}:`;
  return { headers, keyid, nonce };
}

/**
 * A TAP body object (agenticPaymentContainer, agenticConsumer) signed by the request's key with its nonce: the
 * signature covers the compact JSON of the object's other members in the order given (docs/cards.md).
 */
export function signAgentObject<T extends Record<string, unknown>>(object: T, privateJwk: AgentPrivateJwk, nonce: string) {
  const rest = { ...object, nonce, kid: agentKeyId(privateJwk), alg: "ed25519" };
  delete (rest as Record<string, unknown>).signature;
  const signature = sign(null, Buffer.from(JSON.stringify(rest), "utf8"), keyOf(privateJwk)).toString("base64");
  return { ...rest, signature };
}

export interface AgentKeyRegistrationOptions {
  /** The registration's URL: `<service base URL>/visa/agents` or `/mastercard/agents`. */
  url: string;
  /** The key being registered (its public members are the registration's `jwk`). */
  privateJwk: AgentPrivateJwk;
  /** `challenge` from `POST /<network>/agents/challenge` (single use, valid 5 minutes). */
  challenge: string;
}

/**
 * The headers that prove possession of the key being registered (docs/cards.md "Agent keys"): the registration
 * request signed by that key, tag "agent-key-registration", covering "@method" "@authority" "@path", the
 * challenge as the nonce. Send them with `POST <url> { name, jwk }`.
 */
export function signAgentKeyRegistration(options: AgentKeyRegistrationOptions): AgentSignature {
  return signAgentRequest({
    method: "POST",
    url: options.url,
    privateJwk: options.privateJwk,
    tag: "agent-key-registration",
    nonce: options.challenge,
    components: ["@method", "@authority", "@path"],
  });
}
