// RFC 9421 HTTP Message Signatures, the part the agent verifier needs (docs/cards.md "Verification"): parsing
// `Signature-Input` / `Signature` (structured-headers, RFC 9651), rebuilding the signature base of a request, and
// checking an Ed25519 signature with node:crypto. Pure: no database, no clock.
//
// Tolerance for Visa's published samples (verify side only): parameter `keyId` is read as `keyid`, and `"; "` or
// `= "` spacing is accepted. The `@signature-params` line is the member's text exactly as received (what RFC 9421
// signers serialize, and what the Visa sample signs), so the tolerance never changes what was signed.
import { verify as cryptoVerify, type KeyObject } from "node:crypto";
import { parseDictionary, parseItem, serializeItem, type Item } from "structured-headers";

export type ParamValue = string | number | boolean;

export interface CoveredComponent {
  /** Lower-case component name: `@authority`, `signature-agent`, ... */
  name: string;
  params: Map<string, ParamValue>;
}

export interface ParsedSignature {
  label: string;
  components: CoveredComponent[];
  params: Map<string, ParamValue>;
  /** The member's value as received (the inner list and its parameters): the `@signature-params` line. */
  rawParams: string;
  signature: Buffer;
}

export class MalformedSignature extends Error {}

/** The request as the verifier sees it; `header` returns a field's combined value, or null. */
export interface SignedRequest {
  method: string;
  scheme: string;
  authority: string;
  path: string;
  /** Without the leading `?`; "" when there is none. */
  query: string;
  header(name: string): string | null;
  /** The body received, when known (a covered content-digest is checked against it); null or absent: unknown. */
  body?: string | null;
}

/** Splits a dictionary's text at top-level commas (outside strings and inner lists). */
function splitMembers(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === "\\") i++;
      else if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (ch === "," && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((m) => m.trim()).filter((m) => m.length > 0);
}

/** Visa-sample spellings made strict RFC 8941 (outside quoted strings nothing else changes). */
function normalizeInput(member: string): string {
  return member
    .replace(/;\s+/g, ";")
    .replace(/;keyId=/g, ";keyid=")
    .replace(/=\s+"/g, '="');
}

function toParams(map: Map<string, unknown>): Map<string, ParamValue> {
  const out = new Map<string, ParamValue>();
  for (const [k, v] of map) {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out.set(k, v);
    else if (v && typeof v === "object" && "toString" in v) out.set(k, String(v)); // a Token
  }
  return out;
}

/** Every signature of the request; throws MalformedSignature when the fields do not parse. */
export function parseSignatures(signatureInput: string, signature: string): ParsedSignature[] {
  try {
    const signatures = parseDictionary(signature);
    const parsed: ParsedSignature[] = [];
    for (const raw of splitMembers(signatureInput)) {
      const eq = raw.indexOf("=");
      if (eq <= 0) throw new MalformedSignature("member without a value");
      const label = raw.slice(0, eq).trim();
      const rawParams = raw.slice(eq + 1).trim();
      const dict = parseDictionary(`${label}=${normalizeInput(rawParams)}`);
      const entry = dict.get(label);
      if (!entry || !Array.isArray(entry[0])) throw new MalformedSignature(`${label} is not an inner list`);
      const components = (entry[0] as Item[]).map(([name, params]) => {
        if (typeof name !== "string") throw new MalformedSignature("a component identifier must be a string");
        return { name: name.toLowerCase(), params: toParams(params as Map<string, unknown>) };
      });
      const sig = signatures.get(label);
      if (!sig || !(sig[0] instanceof ArrayBuffer)) throw new MalformedSignature(`no byte-sequence Signature for ${label}`);
      parsed.push({ label, components, params: toParams(entry[1] as Map<string, unknown>), rawParams, signature: Buffer.from(sig[0]) });
    }
    if (parsed.length === 0) throw new MalformedSignature("empty Signature-Input");
    return parsed;
  } catch (err) {
    if (err instanceof MalformedSignature) throw err;
    throw new MalformedSignature(err instanceof Error ? err.message : "unparsable");
  }
}

function serializeComponentId(c: CoveredComponent): string {
  let out = JSON.stringify(c.name);
  for (const [k, v] of c.params) out += v === true ? `;${k}` : `;${k}=${typeof v === "string" ? JSON.stringify(v) : String(v)}`;
  return out;
}

/** A field's member named by `key` (RFC 9421 §2.1.2), serialized; or the legacy bare string when `allowBareItem`. */
function dictionaryMember(value: string, key: string): string | null {
  try {
    const member = parseDictionary(value).get(key);
    if (!member || Array.isArray(member[0])) return null;
    return serializeItem(member as Item);
  } catch {
    return null;
  }
}

/** The value of one covered component, or null when the request does not have it. */
function componentValue(req: SignedRequest, c: CoveredComponent): string | null {
  switch (c.name) {
    case "@method":
      return req.method.toUpperCase();
    case "@authority":
      return req.authority.toLowerCase();
    case "@scheme":
      return req.scheme.toLowerCase();
    case "@path":
      return req.path || "/";
    case "@query":
      return `?${req.query}`;
    case "@request-target":
      return `${req.path || "/"}${req.query ? `?${req.query}` : ""}`;
    case "@target-uri":
      return `${req.scheme.toLowerCase()}://${req.authority.toLowerCase()}${req.path || "/"}${req.query ? `?${req.query}` : ""}`;
    default: {
      if (c.name.startsWith("@")) return null; // @status, @query-param and the rest: not accepted here
      const value = req.header(c.name);
      if (value === null) return null;
      const key = c.params.get("key");
      if (typeof key === "string") return dictionaryMember(value, key);
      return value.trim();
    }
  }
}

/** The signature base (RFC 9421 §2.5), or null when a covered component is absent from the request. */
export function signatureBase(req: SignedRequest, sig: ParsedSignature): string | null {
  const lines: string[] = [];
  for (const c of sig.components) {
    const value = componentValue(req, c);
    if (value === null) return null;
    lines.push(`${serializeComponentId(c)}: ${value}`);
  }
  lines.push(`"@signature-params": ${sig.rawParams}`);
  return lines.join("\n");
}

/** Ed25519 over the base. */
export function signatureValid(base: string, signature: Buffer, key: KeyObject): boolean {
  try {
    return cryptoVerify(null, Buffer.from(base, "utf8"), key, signature);
  } catch {
    return false;
  }
}

/** A `Signature-Agent` member for a label (dictionary form), or the legacy bare string; null when absent or unparsable. */
export function signatureAgentUrl(value: string | null, label: string): string | null {
  if (value === null) return null;
  try {
    const member = parseDictionary(value).get(label);
    if (member && typeof member[0] === "string") return member[0];
  } catch {
    // not a dictionary: the legacy sf-string form
  }
  try {
    const item = parseItem(value);
    if (typeof item[0] === "string") return item[0];
  } catch {
    return null;
  }
  return null;
}
