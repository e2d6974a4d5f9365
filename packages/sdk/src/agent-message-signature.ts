// RFC 9421 HTTP Message Signatures, verify side, for verifyAgentRequest (agent-verify.ts): the signatures of a
// message, its signature base, and the keys they are checked with (Ed25519 and RSA-PSS-SHA512 through WebCrypto,
// the algorithm taken from the key, never from the signature's `alg`). No node:crypto: WebCrypto only.
import {
  isInnerList,
  parseDictionary,
  parseItem,
  serializeMember,
  serializeParams,
  SfToken,
  StructuredFieldError,
  type BareItem,
  type Params,
} from "./structured-fields";

export type AgentSignatureAlgorithm = "ed25519" | "rsa-pss-sha512";

export interface CoveredComponent {
  name: string;
  params: Params;
}

export interface MessageSignature {
  label: string;
  components: CoveredComponent[];
  params: Map<string, string | number | boolean>;
  /** The member's text as received: the `@signature-params` line. */
  raw: string;
  signature: Uint8Array;
}

/** A message as the signature base reads it; `header` is a field's combined value, or null. */
export interface SignedMessage {
  method: string;
  scheme: string;
  authority: string;
  path: string;
  query: string;
  header(name: string): string | null;
}

export interface AgentVerificationKey {
  keyid: string;
  algorithm: AgentSignatureAlgorithm;
  key: CryptoKey;
}

export class MalformedSignatureError extends Error {}

const plain = (v: BareItem) => (v instanceof SfToken ? v.value : v instanceof Uint8Array ? null : v);

/** Every signature of the message (Signature-Input with its Signature); throws MalformedSignatureError. */
export function parseMessageSignatures(signatureInput: string, signature: string): MessageSignature[] {
  try {
    const values = parseDictionary(signature);
    const out: MessageSignature[] = [];
    for (const [label, member] of parseDictionary(signatureInput)) {
      const sig = values.get(label)?.value;
      if (!isInnerList(member.value) || !sig || isInnerList(sig) || !(sig.value instanceof Uint8Array))
        throw new MalformedSignatureError(`signature ${label} is not an inner list with a byte-sequence Signature`);
      const components = member.value.items.map((item) => {
        if (typeof item.value !== "string") throw new MalformedSignatureError("a component identifier must be a string");
        return { name: item.value.toLowerCase(), params: item.params };
      });
      const params = new Map<string, string | number | boolean>();
      for (const [k, v] of member.value.params) {
        const p = plain(v);
        if (p !== null) params.set(k, p);
      }
      out.push({ label, components, params, raw: member.raw, signature: sig.value });
    }
    if (out.length === 0) throw new MalformedSignatureError("no signature");
    return out;
  } catch (err) {
    if (err instanceof StructuredFieldError) throw new MalformedSignatureError(err.message);
    throw err;
  }
}

function fieldValue(message: SignedMessage, c: CoveredComponent): string | null {
  const value = message.header(c.name);
  if (value === null) return null;
  const key = c.params.get("key");
  if (typeof key !== "string") return value.trim();
  try {
    const member = parseDictionary(value).get(key);
    return member ? serializeMember(member.value) : null;
  } catch {
    return null;
  }
}

function componentValue(message: SignedMessage, c: CoveredComponent): string | null {
  const target = `${message.path || "/"}${message.query ? `?${message.query}` : ""}`;
  switch (c.name) {
    case "@method":
      return message.method.toUpperCase();
    case "@authority":
      return message.authority.toLowerCase();
    case "@scheme":
      return message.scheme.toLowerCase();
    case "@path":
      return message.path || "/";
    case "@query":
      return `?${message.query}`;
    case "@request-target":
      return target;
    case "@target-uri":
      return `${message.scheme.toLowerCase()}://${message.authority.toLowerCase()}${target}`;
    default:
      return c.name.startsWith("@") ? null : fieldValue(message, c);
  }
}

/** The signature base (RFC 9421 §2.5), or null when a covered component is missing or not supported. */
export function signatureBaseOf(message: SignedMessage, sig: MessageSignature): string | null {
  const lines: string[] = [];
  for (const c of sig.components) {
    const value = componentValue(message, c);
    if (value === null) return null;
    lines.push(`${JSON.stringify(c.name)}${serializeParams(c.params)}: ${value}`);
  }
  lines.push(`"@signature-params": ${sig.raw}`);
  return lines.join("\n");
}

/** The agent's URL in a Signature-Agent field: the member of the signature's label, or the legacy bare string. */
export function signatureAgentOf(value: string | null, label: string): string | null {
  if (value === null) return null;
  try {
    const member = parseDictionary(value).get(label)?.value;
    if (member && !isInnerList(member) && typeof member.value === "string") return member.value;
  } catch {
    // not a dictionary: the legacy sf-string form
  }
  try {
    const item = parseItem(value);
    return typeof item.value === "string" ? item.value : null;
  } catch {
    return null;
  }
}

const SPELLINGS: Record<AgentSignatureAlgorithm, readonly string[]> = {
  ed25519: ["ed25519", "eddsa"],
  "rsa-pss-sha512": ["rsa-pss-sha512", "ps512"],
};

/** Whether an `alg` claim, when there is one, names the key's own algorithm. */
export function algMatches(algorithm: AgentSignatureAlgorithm, claim: unknown): boolean {
  return claim === undefined || (typeof claim === "string" && SPELLINGS[algorithm].includes(claim.toLowerCase()));
}

const B64URL = /^[A-Za-z0-9_-]+$/;
const b64urlBytes = (s: string) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const toB64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** SHA-256 of a UTF-8 string or bytes. */
export async function sha(algorithm: "SHA-256" | "SHA-512", data: string | Uint8Array): Promise<Uint8Array> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return new Uint8Array(await crypto.subtle.digest(algorithm, bytes as BufferSource));
}

/** A public JWK as a verification key (keyid = RFC 7638 thumbprint), or null: unsupported, private, contradicting alg. */
export async function verificationKeyOf(raw: unknown): Promise<AgentVerificationKey | null> {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return null;
  const jwk = raw as Record<string, unknown>;
  if (jwk.d !== undefined || jwk.p !== undefined) return null;
  let members: Record<string, string>;
  let algorithm: AgentSignatureAlgorithm;
  let params: RsaHashedImportParams | Algorithm;
  if (jwk.kty === "OKP" && jwk.crv === "Ed25519" && typeof jwk.x === "string" && B64URL.test(jwk.x)) {
    members = { crv: "Ed25519", kty: "OKP", x: jwk.x };
    algorithm = "ed25519";
    params = { name: "Ed25519" };
  } else if (jwk.kty === "RSA" && typeof jwk.n === "string" && typeof jwk.e === "string" && B64URL.test(jwk.n) && B64URL.test(jwk.e)) {
    if (b64urlBytes(jwk.n).length * 8 < 2048) return null;
    members = { e: jwk.e, kty: "RSA", n: jwk.n };
    algorithm = "rsa-pss-sha512";
    params = { name: "RSA-PSS", hash: "SHA-512" };
  } else return null;
  if (!algMatches(algorithm, jwk.alg)) return null;
  try {
    const key = await crypto.subtle.importKey("jwk", members, params, false, ["verify"]);
    return { keyid: toB64url(await sha("SHA-256", JSON.stringify(members))), algorithm, key };
  } catch {
    return null;
  }
}

/** The signature over `base`, with the key's own algorithm (RSA-PSS: SHA-512, 64-byte salt, RFC 9421 §3.3.1). */
export async function signatureVerifies(base: string, signature: Uint8Array, key: AgentVerificationKey): Promise<boolean> {
  const algorithm = key.algorithm === "ed25519" ? { name: "Ed25519" } : { name: "RSA-PSS", saltLength: 64 };
  try {
    return await crypto.subtle.verify(algorithm, key.key, signature as BufferSource, new TextEncoder().encode(base));
  } catch {
    return false;
  }
}

/** RFC 9530: every sha-256 / sha-512 digest in the field is the body's, and there is at least one. */
export async function contentDigestMatches(field: string | null, body: Uint8Array): Promise<boolean> {
  if (field === null) return false;
  let checked = 0;
  try {
    for (const [name, member] of parseDictionary(field)) {
      const hash = name === "sha-256" ? "SHA-256" : name === "sha-512" ? "SHA-512" : null;
      if (!hash) continue;
      const v = member.value;
      if (isInnerList(v) || !(v.value instanceof Uint8Array)) return false;
      const expected = await sha(hash, body);
      if (expected.length !== v.value.length || expected.some((b, i) => b !== (v.value as Uint8Array)[i])) return false;
      checked++;
    }
  } catch {
    return false;
  }
  return checked > 0;
}
