// Canonical JSON: object keys sorted at every level (RFC 8785's ordering for plain JSON), no whitespace,
// undefined members dropped. What the idempotency fingerprint, AP2's hashes and a paid credential's identity are
// taken over. A value nested deeper than MAX_DEPTH (no real body is) is refused as invalid input, never a stack
// overflow (a 16 KB header can nest thousands of arrays).
import { DomainError } from "./errors";

export const MAX_CANONICAL_DEPTH = 64;

export function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_CANONICAL_DEPTH)
    throw new DomainError("VALIDATION_ERROR", `The JSON is nested deeper than ${MAX_CANONICAL_DEPTH} levels.`, { reason: "too_deep" });
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, depth + 1)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
