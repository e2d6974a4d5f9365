// What the two next-auth Credentials providers do: check a password (sign-in), or sign up (a pending
// sign-up and its emailed link, lib/auth/pending-sign-ups.ts: the account is created only when that link
// is used with that sign-up's password). Sign-up never tells which emails have accounts: it always ends in
// CHECK_EMAIL ("check your email"); an address without an account gets a link of its own, an account's
// owner a "someone tried to sign up with your email" mail. A sign-up not confirmed yet has no account:
// its sign-in is refused as any unknown email's (CredentialsSignin).
// Errors thrown here travel to the browser as next-auth's `error` code (AUTH_ERRORS): only those fixed
// codes. Input is checked as api() checks it (no NUL anywhere) before any query; anything unexpected is
// logged with its detail and answered SERVER_ERROR, never with a database's message.
import { z } from "zod";
import { recordActivity, type RequestOrigin } from "../accounts/activity";
import { getDb, transaction } from "../db";
import { createId } from "../ids";
import { queueSignUp } from "./pending-sign-ups";
import { Email } from "../validation/common";
import { findNulPath } from "../validation/text-safety";
import { noteRetryAfter } from "./auth-route";
import { clearLoginAttempts, maySignUp, noteFailedLogin, takeLoginAttempt } from "./limits";
import { PASSWORD_MIN_LENGTH, type AuthErrorCode } from "./messages";
import { verifyCode } from "../two-factor/verify-code";
import { dummyPasswordHash, hashPassword, needsRehash, PasswordHashBusyError, verifyPassword } from "../crypto/password";

export interface SignedInUser {
  id: string;
  email: string;
  /** The sign-in passed the user's second factor (lib/two-factor/). */
  twoFactor?: boolean;
}

const SignInInput = z.object({
  email: z.string().trim().toLowerCase().pipe(Email),
  password: z.string().min(1).max(200),
  // The second step of a sign-in with two-factor authentication: a TOTP code or a recovery code.
  code: z.string().trim().max(40).optional(),
});
const SignUpInput = z.object({
  name: z.string().trim().min(1).max(100),
  email: z.string().trim().toLowerCase().pipe(Email),
  password: z.string().min(PASSWORD_MIN_LENGTH).max(200),
});

class AuthError extends Error {
  constructor(code: AuthErrorCode) {
    super(code);
  }
}

/** Runs a provider's work; anything but an AuthError is logged and becomes SERVER_ERROR. */
async function guarded<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AuthError) throw err;
    if (err instanceof PasswordHashBusyError) {
      noteRetryAfter(1);
      throw new AuthError("BUSY");
    }
    console.error(`[${createId("request")}] ${what} failed:`, err instanceof Error ? (err.stack ?? err.message) : err);
    throw new AuthError("SERVER_ERROR");
  }
}

/** The form's fields, refused whole when any of them carries a NUL (Postgres text cannot hold one). */
function parseCredentials<S extends z.ZodType>(schema: S, credentials: unknown): z.output<S> | null {
  if (findNulPath(credentials) !== null) return null;
  const input = schema.safeParse(credentials);
  return input.success ? input.data : null;
}

/** `origin`: where the attempt came from, for the activity rows (the client IP, the User-Agent). */
export function signIn(credentials: unknown, ip: string, origin?: RequestOrigin): Promise<SignedInUser | null> {
  return guarded("sign-in", () => checkPassword(credentials, ip, origin ?? { ip, userAgent: null }));
}

/**
 * A sign-in attempt. Its answer is logged for an existing user: `sign_in`, or `sign_in_failed` for a wrong
 * password (an unknown email writes nothing; attempts the limits refuse are not checked, nor logged).
 */
async function checkPassword(credentials: unknown, ip: string, origin: RequestOrigin): Promise<SignedInUser | null> {
  const input = parseCredentials(SignInInput, credentials);
  if (!input) return null;
  const { email, password } = input;
  const verdict = await takeLoginAttempt(ip, email);
  if (!verdict.allowed) {
    noteRetryAfter(verdict.retryAfterSeconds);
    throw new AuthError("RATE_LIMITED");
  }
  const user = await getDb().user.findUnique({
    where: { email },
    select: {
      id: true,
      email: true,
      passwordHash: true,
      twoFactor: { select: { enabledAt: true } },
    },
  });
  // Unknown emails cost the same scrypt time as known ones, so timing does not tell which have accounts.
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !ok) {
    await noteFailedLogin(email, verdict.attempts);
    if (user) await recordActivity(getDb(), { action: "sign_in_failed", userId: user.id, origin });
    return null;
  }
  await clearLoginAttempts(email);
  const twoFactor = Boolean(user.twoFactor?.enabledAt);
  if (twoFactor) await passSecondFactor(user.id, input.code, origin);
  await recordActivity(getDb(), { action: "sign_in", userId: user.id, origin });
  if (needsRehash(user.passwordHash)) await rehash(user.id, user.passwordHash, password);
  return { id: user.id, email: user.email, twoFactor };
}

/**
 * The second step, asked only after the right password: no code yet is TWO_FACTOR_REQUIRED (the form then
 * shows a code field and sends the password again with the code); a wrong, replayed or used code is
 * TWO_FACTOR_INVALID and an activity row; too many wrong codes, RATE_LIMITED (lib/two-factor/verify-code.ts).
 */
async function passSecondFactor(userId: string, code: string | undefined, origin: RequestOrigin): Promise<void> {
  if (!code) throw new AuthError("TWO_FACTOR_REQUIRED");
  const verdict = await verifyCode({
    userId,
    code,
    origin,
    onFailure: (tx) => recordActivity(tx, { action: "sign_in_failed", userId, origin, detail: { reason: "two_factor" } }),
  });
  if (verdict.ok) return;
  if (verdict.reason === "wrong") throw new AuthError("TWO_FACTOR_INVALID");
  noteRetryAfter(verdict.retryAfterSeconds);
  throw new AuthError("RATE_LIMITED");
}

/**
 * Stores the password under today's scrypt parameters, unless the hash changed meanwhile. Best effort:
 * when hashing is at capacity the sign-in still succeeds, and the next one rehashes.
 */
async function rehash(userId: string, oldHash: string, password: string): Promise<void> {
  try {
    const passwordHash = await hashPassword(password);
    await getDb().user.updateMany({ where: { id: userId, passwordHash: oldHash }, data: { passwordHash } });
  } catch (err) {
    if (!(err instanceof PasswordHashBusyError)) throw err;
  }
}

/** Always throws: CHECK_EMAIL when the form was fine (whatever the email), or why it was refused. */
export function signUp(credentials: unknown, ip: string): Promise<SignedInUser> {
  return guarded("sign-up", () => createAccount(credentials, ip));
}

async function createAccount(credentials: unknown, ip: string): Promise<never> {
  const input = parseCredentials(SignUpInput, credentials);
  if (!input) throw new AuthError("INVALID_SIGNUP");
  if (!(await maySignUp(ip))) {
    noteRetryAfter(60);
    throw new AuthError("RATE_LIMITED");
  }
  // Hashed before the transaction opens (no connection is held while the hash waits for the gate or
  // runs), and for a taken email too, so that the answer takes as long either way.
  const passwordHash = await hashPassword(input.password);
  await transaction((tx) => queueSignUp(tx, { name: input.name, email: input.email, passwordHash }));
  throw new AuthError("CHECK_EMAIL");
}
