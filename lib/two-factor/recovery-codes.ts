// Recovery codes: ten single-use codes shown once when two-factor sign-in is turned on, for a lost phone.
// Each is 80 random bits in base32, shown as four groups ("abcd-efgh-ijkl-mnop"); only its SHA-256 is
// stored (recovery_codes), which is enough for a random secret this long. A code is spent by one
// UPDATE ... WHERE used_at IS NULL (lib/two-factor/verify-code.ts), so it works exactly once.
import { createHash } from "node:crypto";
import { Secret } from "otpauth";
import type { Db } from "../db";

export const RECOVERY_CODE_COUNT = 10;

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => new Secret({ size: 10 }).base32.toLowerCase().match(/.{4}/g)!.join("-"));
}

/** The stored hash of a code as typed (any case, with or without dashes and spaces), or null when it cannot be one. */
export function recoveryCodeHash(input: string): string | null {
  const code = input.replace(/[\s-]+/g, "").toLowerCase();
  if (!/^[a-z2-7]{16}$/.test(code)) return null;
  return createHash("sha256").update(code).digest("hex");
}

/** Replaces the user's recovery codes with these (used and unused alike). */
export async function storeRecoveryCodes(tx: Db, userId: string, codes: string[]): Promise<void> {
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await tx.recoveryCode.createMany({ data: codes.map((code) => ({ userId, codeHash: recoveryCodeHash(code)! })) });
}
