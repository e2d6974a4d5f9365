// Checking a second-factor code (at sign-in, or to turn two-factor sign-in off), all decided by the
// database in ONE transaction:
//  1. the attempt is counted up front on the user's row (UPDATE ... WHERE not blocked RETURNING): past
//     TWO_FACTOR_FAILURES_MAX wrong codes in a row each one blocks the user's codes for 30 s, 60 s, ...
//     up to TWO_FACTOR_BACKOFF_MAX_SECONDS; concurrent attempts queue on the row and cannot slip past;
//  2. a TOTP code matching a step within one of now is spent by UPDATE ... WHERE last_used_step < step
//     (a replay within its window, or an older code, finds no row); a recovery code by
//     UPDATE ... WHERE used_at IS NULL; either clears the count;
//  3. the caller's work for a right code (`onSuccess`) or a wrong one (`onFailure`: the count and its
//     activity row commit, the answer is a refusal) runs in the same transaction.
import { recordActivity, type RequestOrigin } from "../accounts/activity";
import { transaction, type Db } from "../db";
import { env } from "../env";
import { openSecret } from "../crypto/secret-box";
import { recoveryCodeHash } from "./recovery-codes";
import { matchingStep, totpCodeOf } from "./totp";

export type CodeVerdict =
  { ok: true; recoveryCode: boolean } | { ok: false; reason: "wrong" } | { ok: false; reason: "blocked"; retryAfterSeconds: number };

interface Taken {
  secret_sealed: string;
}

/** Counts the attempt; no row when the user has no two-factor sign-in on, or while their codes are blocked. */
function takeAttempt(tx: Db, userId: string) {
  const max = env.TWO_FACTOR_FAILURES_MAX;
  return tx.$queryRaw<Taken[]>`
    UPDATE user_two_factor SET
      failures = failures + 1,
      blocked_until = CASE WHEN failures + 1 >= ${max}::int
        THEN now() + LEAST(${env.TWO_FACTOR_BACKOFF_MAX_SECONDS}::float8, 30 * power(2, failures + 1 - ${max}::int)) * interval '1 second'
      END
    WHERE user_id = ${userId} AND enabled_at IS NOT NULL AND (blocked_until IS NULL OR blocked_until <= now())
    RETURNING secret_sealed`;
}

async function blockedSeconds(tx: Db, userId: string): Promise<number | null> {
  const [row] = await tx.$queryRaw<{ seconds: number | null }[]>`
    SELECT EXTRACT(EPOCH FROM (blocked_until - now()))::float8 AS seconds
      FROM user_two_factor WHERE user_id = ${userId} AND enabled_at IS NOT NULL AND blocked_until > now()`;
  return row?.seconds == null ? null : Math.max(1, Math.ceil(row.seconds));
}

/** Spends a TOTP step: true once per step, and never for a step older than the last one accepted. */
async function spendStep(tx: Db, userId: string, step: number): Promise<boolean> {
  const spent = await tx.$executeRaw`
    UPDATE user_two_factor SET last_used_step = ${step}::bigint, failures = 0, blocked_until = NULL
     WHERE user_id = ${userId} AND enabled_at IS NOT NULL AND (last_used_step IS NULL OR last_used_step < ${step}::bigint)`;
  return spent === 1;
}

async function spendRecoveryCode(tx: Db, userId: string, codeHash: string): Promise<boolean> {
  const { count } = await tx.recoveryCode.updateMany({ where: { userId, codeHash, usedAt: null }, data: { usedAt: new Date() } });
  if (count !== 1) return false;
  await tx.userTwoFactor.update({ where: { userId }, data: { failures: 0, blockedUntil: null } });
  return true;
}

export interface CodeCheck {
  userId: string;
  /** As typed: a 6-digit TOTP code or a recovery code. */
  code: string;
  origin?: RequestOrigin;
  onSuccess?: (tx: Db) => Promise<void>;
  onFailure?: (tx: Db) => Promise<void>;
}

export function verifyCode(check: CodeCheck): Promise<CodeVerdict> {
  return transaction(async (tx): Promise<CodeVerdict> => {
    const [taken] = await takeAttempt(tx, check.userId);
    if (!taken) {
      const seconds = await blockedSeconds(tx, check.userId);
      return seconds === null ? { ok: false, reason: "wrong" } : { ok: false, reason: "blocked", retryAfterSeconds: seconds };
    }
    const totp = totpCodeOf(check.code);
    const step = totp === null ? null : matchingStep(openSecret(taken.secret_sealed), totp);
    const codeHash = totp === null ? recoveryCodeHash(check.code) : null;
    const right =
      step !== null ? await spendStep(tx, check.userId, step) : codeHash !== null && (await spendRecoveryCode(tx, check.userId, codeHash));
    if (!right) {
      await check.onFailure?.(tx);
      return { ok: false, reason: "wrong" };
    }
    if (codeHash !== null) await recordActivity(tx, { action: "recovery_code_used", userId: check.userId, origin: check.origin });
    await check.onSuccess?.(tx);
    return { ok: true, recoveryCode: codeHash !== null };
  });
}
