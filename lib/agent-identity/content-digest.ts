// RFC 9530 Content-Digest against the body received (docs/cards.md "Signed bodies"): when a signature covers
// `content-digest`, the field must hold a sha-256 or sha-512 digest, and every one of those it holds must be the
// body's. Other algorithms are ignored (none of ours alone is not enough).
import { createHash } from "node:crypto";
import { parseDictionary } from "structured-headers";

const ALGORITHMS: Record<string, string> = { "sha-256": "sha256", "sha-512": "sha512" };

export function contentDigestMatches(field: string | null, body: string): boolean {
  if (field === null) return false;
  let members;
  try {
    members = parseDictionary(field);
  } catch {
    return false;
  }
  let checked = 0;
  for (const [name, [value]] of members) {
    const hash = ALGORITHMS[name];
    if (!hash) continue;
    if (!(value instanceof ArrayBuffer)) return false;
    const expected = createHash(hash).update(body, "utf8").digest();
    if (!expected.equals(Buffer.from(value))) return false;
    checked++;
  }
  return checked > 0;
}
