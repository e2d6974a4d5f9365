// Secrets the service must use again (webhook signing secrets; paid answers kept for a replay) are stored encrypted with AES-256-GCM
// under SECRETS_ENCRYPTION_KEY; the stored form is "v1:<iv>:<tag>:<ciphertext>" (base64 parts).
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { env } from "../env";
import { InvariantViolation } from "../errors";

function encryptionKey(): Buffer {
  const raw = env.SECRETS_ENCRYPTION_KEY;
  if (!raw) throw new InvariantViolation("SECRETS_ENCRYPTION_KEY is not set; the service cannot store webhook secrets.");
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
  if (key.length !== 32) throw new InvariantViolation("SECRETS_ENCRYPTION_KEY must be 32 bytes (64 hex characters or base64).");
  return key;
}

export function sealSecret(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), ciphertext.toString("base64")].join(":");
}

export function openSecret(sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(":");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined) throw new InvariantViolation("A stored secret has an unknown format.");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(), Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64")), decipher.final()]).toString("utf8");
}

/** Bytes sealed the same way, as one buffer: iv (12) | tag (16) | ciphertext (a stored paid answer's body). */
export function sealBytes(plain: Uint8Array): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(), iv);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
}

export function openBytes(sealed: Uint8Array): Buffer {
  const bytes = Buffer.from(sealed);
  if (bytes.length < 28) throw new InvariantViolation("A stored sealed value is too short.");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
}
