// The pay form's anti-forgery token: HMAC(checkout id, issue time) under a key derived from
// SECRETS_ENCRYPTION_KEY (a per-process random key when unset, e.g. in a bare `next dev`). It binds a
// submission to a page the server rendered for that checkout; the Origin check does the rest.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { env } from "../env";
import { globalSingleton } from "../global-singleton";

const MAX_AGE_MS = 25 * 60 * 60 * 1000; // a checkout lives at most 24 h

function key(): Buffer {
  return globalSingleton("pay.form-key", () =>
    env.SECRETS_ENCRYPTION_KEY
      ? createHmac("sha256", env.SECRETS_ENCRYPTION_KEY).update("aps:pay-form-token:v1").digest()
      : randomBytes(32),
  );
}

function sign(checkoutId: string, issuedAt: number): string {
  return createHmac("sha256", key()).update(`${checkoutId}.${issuedAt}`).digest("base64url");
}

export function issueFormToken(checkoutId: string, now = Date.now()): string {
  return `${now}.${sign(checkoutId, now)}`;
}

export function verifyFormToken(checkoutId: string, token: string | null | undefined, now = Date.now()): boolean {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token ?? "");
  if (!match) return false;
  const issuedAt = Number(match[1]);
  if (issuedAt > now + 60_000 || now - issuedAt > MAX_AGE_MS) return false;
  const expected = Buffer.from(sign(checkoutId, issuedAt));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
