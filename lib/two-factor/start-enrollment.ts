// Step 1 of turning on two-factor sign-in: a fresh secret, stored sealed and pending (enabled_at null)
// until a first code confirms it (confirm-enrollment.ts). Starting again replaces a pending secret; an
// enabled one is never replaced here (the upsert's WHERE), that is a 409: turn it off first.
import type { Db } from "../db";
import { ConflictError } from "../errors";
import { sealSecret } from "../crypto/secret-box";
import { newTotpSecret, totpUri } from "./totp";

export interface Enrollment {
  /** base32, for typing into the app. */
  secret: string;
  /** otpauth://totp/... for apps that take a link or a QR code made from it. */
  uri: string;
}

export async function startEnrollment(tx: Db, user: { id: string; email: string }): Promise<Enrollment> {
  const secret = newTotpSecret();
  const sealed = sealSecret(secret);
  const rows = await tx.$queryRaw<{ user_id: string }[]>`
    INSERT INTO user_two_factor (user_id, secret_sealed) VALUES (${user.id}, ${sealed})
    ON CONFLICT (user_id) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, last_used_step = NULL, failures = 0,
      blocked_until = NULL, created_at = now()
    WHERE user_two_factor.enabled_at IS NULL
    RETURNING user_id`;
  if (rows.length === 0) throw new ConflictError("Two-factor authentication is already on. Turn it off first to set up a new app.");
  return { secret, uri: totpUri(secret, user.email) };
}
