// Turning two-factor sign-in off, with the password (scrypt, checked before any transaction opens) or a
// current code (a TOTP code or a recovery code, counted and spent as at sign-in: verify-code.ts). The
// row, its recovery codes and the activity row go in one transaction; nothing enabled: 409.
import { recordActivity, type RequestOrigin } from "../accounts/activity";
import { getDb, transaction, type Db } from "../db";
import { ConflictError, RateLimitedError, ValidationError } from "../errors";
import { PasswordHashBusyError, verifyPassword } from "../crypto/password";
import type { DisableTwoFactorInput } from "./schemas";
import { verifyCode } from "./verify-code";

async function removeTwoFactor(tx: Db, userId: string, origin: RequestOrigin): Promise<void> {
  const { count } = await tx.userTwoFactor.deleteMany({ where: { userId, enabledAt: { not: null } } });
  if (count !== 1) throw new ConflictError("Two-factor authentication is not on.");
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await recordActivity(tx, { action: "two_factor_disabled", userId, origin });
}

export async function disableTwoFactor(
  who: { userId: string; origin: RequestOrigin },
  input: DisableTwoFactorInput,
): Promise<{ enabled: false }> {
  if (input.password !== undefined) {
    const user = await getDb().user.findUniqueOrThrow({ where: { id: who.userId }, select: { passwordHash: true } });
    // The hashing gate at capacity: a short wait, as at sign-in (BUSY there), rather than a 500.
    const right = await verifyPassword(input.password, user.passwordHash).catch((err: unknown) => {
      throw err instanceof PasswordHashBusyError ? new RateLimitedError(1) : err;
    });
    if (!right) throw new ValidationError("That password is not right.", [{ path: "password", message: "That password is not right." }]);
    await transaction((tx) => removeTwoFactor(tx, who.userId, who.origin));
    return { enabled: false };
  }
  const enabled = await getDb().userTwoFactor.count({ where: { userId: who.userId, enabledAt: { not: null } } });
  if (enabled === 0) throw new ConflictError("Two-factor authentication is not on.");
  const verdict = await verifyCode({
    userId: who.userId,
    code: input.code!,
    origin: who.origin,
    onSuccess: (tx) => removeTwoFactor(tx, who.userId, who.origin),
  });
  if (verdict.ok) return { enabled: false };
  if (verdict.reason === "blocked") throw new RateLimitedError(verdict.retryAfterSeconds);
  throw new ValidationError("That code is not right.", [{ path: "code", message: "That code is not right, or was already used." }]);
}
