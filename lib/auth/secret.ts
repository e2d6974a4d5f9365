// The secret that signs and encrypts dashboard sessions (and keys the dashboard's CSRF tokens).
// AUTH_SECRET when set; else derived from SECRETS_ENCRYPTION_KEY (one root secret is enough for a
// deployment); else, outside production, a random one kept in .data/auth-secret so sessions survive
// restarts of `next dev`. Production with neither refuses to sign anyone in rather than use a weak key.
import { createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "../env";
import { globalSingleton } from "../global-singleton";

export function authSecret(): string {
  return globalSingleton("auth.secret", resolveSecret);
}

function resolveSecret(): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  if (env.SECRETS_ENCRYPTION_KEY) return createHmac("sha256", env.SECRETS_ENCRYPTION_KEY).update("aps:auth-secret:v1").digest("base64url");
  if (env.NODE_ENV === "production") throw new Error("AUTH_SECRET is not set (nor SECRETS_ENCRYPTION_KEY): dashboard sign-in is disabled.");
  return localSecret();
}

function localSecret(): string {
  const file = path.join(process.cwd(), ".data", "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
