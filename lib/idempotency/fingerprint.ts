// The request fingerprint an Idempotency-Key is bound to: method + path + canonical JSON of the body,
// so key order and whitespace do not matter but any change of value does.
import { createHash } from "node:crypto";
import { canonicalJson } from "../canonical-json";

export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method.toUpperCase()} ${path}\n${canonicalJson(body)}`)
    .digest("hex");
}
