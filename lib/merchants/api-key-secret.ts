// API key secrets: `sk_test_...` / `sk_live_...` (secret keys, full access) and `rk_test_...` / `rk_live_...`
// (restricted keys, docs/restricted-keys.md), shown once, stored only as a SHA-256 hash. A fast hash is right here
// (unlike passwords): the secret is 32 random base62 characters, not guessable.
import { createHash } from "node:crypto";
import { randomBase62 } from "../ids";

const SECRET_PATTERN = /^[sr]k_(test|live)_[0-9A-Za-z]{32}$/;

export type KeyKind = "secret" | "restricted";

export function generateSecret(livemode: boolean, kind: KeyKind = "secret"): string {
  return `${kind === "restricted" ? "rk" : "sk"}_${livemode ? "live" : "test"}_${randomBase62(32)}`;
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** True when the string has the shape of an API key, secret or restricted (checked before any database lookup). */
export function looksLikeSecret(value: string): boolean {
  return SECRET_PATTERN.test(value);
}

/** What lists show of a key: its kind and mode prefix and first characters, never enough to use it. */
export function visiblePrefix(secret: string): string {
  return secret.slice(0, 12);
}
