// Secrets that `npm start` makes up once for a local install and keeps under .data/ (mode 0600), so
// that they survive restarts: e.g. the key that encrypts stored webhook signing secrets.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./prisma-cli";

export function persistentLocalSecret(name: string, bytes = 32): string {
  const file = path.join(ROOT, ".data", name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(bytes).toString("hex");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
