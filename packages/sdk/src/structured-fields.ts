// The part of RFC 9651 (HTTP Structured Field Values) that RFC 9421 signatures need: dictionaries whose members
// are items or inner lists with parameters; bare items of every type but dates and display strings. Each member
// keeps its text exactly as received (the `@signature-params` line is that text). No dependency.

/** A token (`sig1`, `?1` is a boolean): kept apart from strings so that serializing gives it back unquoted. */
export class SfToken {
  constructor(readonly value: string) {}
}

export type BareItem = string | number | boolean | Uint8Array | SfToken;
export type Params = Map<string, BareItem>;
export interface SfItem {
  value: BareItem;
  params: Params;
}
export interface SfInnerList {
  items: SfItem[];
  params: Params;
}
export interface SfMember {
  value: SfItem | SfInnerList;
  /** The member's value as received (after `=`), parameters included. */
  raw: string;
}

export class StructuredFieldError extends Error {}

export const isInnerList = (v: SfItem | SfInnerList): v is SfInnerList => "items" in v;

class Parser {
  i = 0;
  constructor(readonly s: string) {}

  fail(what: string): never {
    throw new StructuredFieldError(`${what} at ${this.i}`);
  }

  spaces(ows = false) {
    while (this.s[this.i] === " " || (ows && this.s[this.i] === "\t")) this.i++;
  }

  key(): string {
    const m = /^[a-z*][a-z0-9_\-.*]*/.exec(this.s.slice(this.i));
    if (!m) this.fail("a key");
    this.i += m[0].length;
    return m[0];
  }

  bareItem(): BareItem {
    const rest = this.s.slice(this.i);
    const c = rest[0];
    if (c === '"') return this.string();
    if (c === ":") {
      const m = /^:([A-Za-z0-9+/=]*):/.exec(rest);
      if (!m) this.fail("a byte sequence");
      this.i += m[0].length;
      return Uint8Array.from(atob(m[1]), (ch) => ch.charCodeAt(0));
    }
    if (c === "?") {
      if (rest[1] !== "0" && rest[1] !== "1") this.fail("a boolean");
      this.i += 2;
      return rest[1] === "1";
    }
    const num = /^-?\d{1,15}(\.\d{1,3})?/.exec(rest);
    if (num) {
      this.i += num[0].length;
      return Number(num[0]);
    }
    const token = /^[A-Za-z*][A-Za-z0-9!#$%&'*+\-.^_`|~:/]*/.exec(rest);
    if (!token) this.fail("an item");
    this.i += token[0].length;
    return new SfToken(token[0]);
  }

  string(): string {
    let out = "";
    this.i++;
    for (;;) {
      const c = this.s[this.i++];
      if (c === undefined) this.fail("an unterminated string");
      if (c === '"') return out;
      if (c === "\\") {
        const next = this.s[this.i++];
        if (next !== '"' && next !== "\\") this.fail("an escape");
        out += next;
      } else if (c < " " || c > "~") this.fail("a string character");
      else out += c;
    }
  }

  params(): Params {
    const params: Params = new Map();
    while (this.s[this.i] === ";") {
      this.i++;
      this.spaces();
      const k = this.key();
      let v: BareItem = true;
      if (this.s[this.i] === "=") {
        this.i++;
        v = this.bareItem();
      }
      params.set(k, v);
    }
    return params;
  }

  itemOrInnerList(): SfItem | SfInnerList {
    if (this.s[this.i] !== "(") return { value: this.bareItem(), params: this.params() };
    this.i++;
    const items: SfItem[] = [];
    for (;;) {
      this.spaces();
      if (this.s[this.i] === ")") {
        this.i++;
        return { items, params: this.params() };
      }
      items.push({ value: this.bareItem(), params: this.params() });
      if (this.s[this.i] !== " " && this.s[this.i] !== ")") this.fail("an inner list");
    }
  }
}

/** A dictionary field's members by key (a later duplicate wins, as RFC 9651 says); throws StructuredFieldError. */
export function parseDictionary(text: string): Map<string, SfMember> {
  const p = new Parser(text.trim());
  const out = new Map<string, SfMember>();
  while (p.i < p.s.length) {
    const key = p.key();
    let value: SfItem | SfInnerList;
    if (p.s[p.i] === "=") p.i++;
    const start = p.i;
    if (p.s[start - 1] === "=") value = p.itemOrInnerList();
    else value = { value: true, params: p.params() };
    out.set(key, { value, raw: p.s.slice(start, p.i) });
    p.spaces(true);
    if (p.i >= p.s.length) break;
    if (p.s[p.i] !== ",") p.fail("a comma");
    p.i++;
    p.spaces(true);
    if (p.i >= p.s.length) p.fail("a trailing comma");
  }
  return out;
}

/** One item field (a legacy `Signature-Agent: "https://..."`); throws StructuredFieldError. */
export function parseItem(text: string): SfItem {
  const p = new Parser(text.trim());
  const item = { value: p.bareItem(), params: p.params() };
  if (p.i !== p.s.length) p.fail("the end");
  return item;
}

function serializeBare(v: BareItem): string {
  if (typeof v === "string") return `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  if (typeof v === "boolean") return v ? "?1" : "?0";
  if (typeof v === "number") return String(v);
  if (v instanceof SfToken) return v.value;
  return `:${btoa(String.fromCharCode(...v))}:`;
}

export function serializeParams(params: Params): string {
  let out = "";
  for (const [k, v] of params) out += v === true ? `;${k}` : `;${k}=${serializeBare(v)}`;
  return out;
}

/** An item or inner list, serialized (RFC 9651 §4.1): a dictionary member's value as a signature base shows it. */
export function serializeMember(v: SfItem | SfInnerList): string {
  if (isInnerList(v))
    return `(${v.items.map((i) => serializeBare(i.value) + serializeParams(i.params)).join(" ")})${serializeParams(v.params)}`;
  return serializeBare(v.value) + serializeParams(v.params);
}
