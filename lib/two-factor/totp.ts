// TOTP (RFC 6238) as every authenticator app reads it: SHA-1, 6 digits, 30 s steps, a 160-bit secret in
// base32. A code is accepted for the current step or the one either side (clocks drift, typing takes
// time); the caller spends the step it matched (lib/two-factor/verify-code.ts), so a code works once.
import { Secret, TOTP } from "otpauth";

export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = "Agent Payments Service";

function totpOf(secret: string, label = ""): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: "SHA1", digits: 6, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

/** A fresh random secret, base32 (what the user types into an app that cannot scan the URI). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app takes (issuer and the user's email as the label). */
export function totpUri(secret: string, email: string): string {
  return totpOf(secret, email).toString();
}

/** A code as typed: digits only once spaces are dropped ("123 456"), else null. */
export function totpCodeOf(input: string): string | null {
  const code = input.replace(/\s+/g, "");
  return /^\d{6}$/.test(code) ? code : null;
}

/** The time step (30 s since the epoch) the code belongs to, within one step of `now`, or null. */
export function matchingStep(secret: string, code: string, now = Date.now()): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: now }) + delta;
}
