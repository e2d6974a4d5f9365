// Hashes of AP2 objects: SHA-256 of canonical JSON (object keys sorted at every level, no whitespace; RFC 8785's
// ordering for the plain JSON AP2 mandates carry), base64url without padding (docs/a2a.md "cart_hash").
import { createHash } from "node:crypto";
import { canonicalJson } from "../canonical-json";

export function sha256B64url(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value), "utf8").digest("base64url");
}
