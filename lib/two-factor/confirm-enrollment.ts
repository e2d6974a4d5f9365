// Step 2 of turning on two-factor sign-in: the first code from the app proves it holds the secret. In ONE
// transaction: the pending row is enabled only if it still holds the secret the code was checked
// against (a second "set up" meanwhile replaced it: 409), the code's step is spent, ten recovery codes
// replace any older ones, this session counts as having proved the second factor (the live-mode gate,
// lib/dashboard/two-factor-gate.ts), and the activity row is written. The codes are shown once.
import { recordActivity, type RequestOrigin } from "../accounts/activity";
import type { Db } from "../db";
import { ConflictError, ValidationError } from "../errors";
import { openSecret } from "../crypto/secret-box";
import { newRecoveryCodes, storeRecoveryCodes } from "./recovery-codes";
import { matchingStep, totpCodeOf } from "./totp";

export async function confirmEnrollment(
  tx: Db,
  who: { userId: string; sid: string; origin: RequestOrigin },
  input: { code: string },
): Promise<{ enabled: true; recoveryCodes: string[] }> {
  const pending = await tx.userTwoFactor.findUnique({ where: { userId: who.userId }, select: { secretSealed: true, enabledAt: true } });
  if (!pending || pending.enabledAt) throw new ConflictError("There is no setup waiting for a code: start the setup again.");
  const code = totpCodeOf(input.code);
  const step = code === null ? null : matchingStep(openSecret(pending.secretSealed), code);
  if (step === null)
    throw new ValidationError("That code is not right.", [
      { path: "code", message: "That code is not right: enter the 6-digit code the app shows now." },
    ]);
  const now = new Date();
  const { count } = await tx.userTwoFactor.updateMany({
    where: { userId: who.userId, enabledAt: null, secretSealed: pending.secretSealed },
    data: { enabledAt: now, lastUsedStep: BigInt(step), failures: 0, blockedUntil: null },
  });
  if (count !== 1) throw new ConflictError("The setup changed meanwhile (another tab?): start the setup again.");
  const recoveryCodes = newRecoveryCodes();
  await storeRecoveryCodes(tx, who.userId, recoveryCodes);
  await tx.dashboardSession.updateMany({ where: { id: who.sid, userId: who.userId }, data: { twoFactorAt: now } });
  await recordActivity(tx, { action: "two_factor_enabled", userId: who.userId, origin: who.origin });
  return { enabled: true, recoveryCodes };
}
