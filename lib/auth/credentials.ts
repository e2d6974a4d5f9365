// What the two next-auth Credentials providers do: check a password (sign-in), or create a merchant with
// its first test and live keys and its first user (sign-up, through the same createMerchant as the CLI).
// Errors thrown here travel to the browser as next-auth's `error` code (AUTH_ERRORS): only those fixed
// codes. Input is checked as api() checks it (no NUL anywhere) before any query; anything unexpected is
// logged with its detail and answered SERVER_ERROR, never with a database's message.
import { z } from "zod";
import { getDb, transaction } from "../db";
import { ConflictError } from "../errors";
import { createMerchant } from "../merchants/create-merchant";
import { createId } from "../ids";
import { Email } from "../validation/common";
import { findNulPath } from "../validation/text-safety";
import { mayAttemptLogin, maySignUp } from "./limits";
import { PASSWORD_MIN_LENGTH, type AuthErrorCode } from "./messages";
import { hashPassword, verifyPassword } from "./password";

export interface SignedInUser {
  id: string;
  email: string;
  merchantId: string;
}

const SignInInput = z.object({ email: z.string().trim().toLowerCase().pipe(Email), password: z.string().min(1).max(200) });
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

// Spent on unknown emails too, so response time does not tell which addresses have accounts.
const dummyHash = hashPassword("not-a-real-password");

/** Runs a provider's work; anything but an AuthError is logged and becomes SERVER_ERROR. */
async function guarded<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AuthError) throw err;
    console.error(`[${createId("request")}] ${what} failed:`, err instanceof Error ? err.stack ?? err.message : err);
    throw new AuthError("SERVER_ERROR");
  }
}

/** The form's fields, refused whole when any of them carries a NUL (Postgres text cannot hold one). */
function parseCredentials<S extends z.ZodType>(schema: S, credentials: unknown): z.output<S> | null {
  if (findNulPath(credentials) !== null) return null;
  const input = schema.safeParse(credentials);
  return input.success ? input.data : null;
}

export function signIn(credentials: unknown, ip: string): Promise<SignedInUser | null> {
  return guarded("sign-in", () => checkPassword(credentials, ip));
}

async function checkPassword(credentials: unknown, ip: string): Promise<SignedInUser | null> {
  const input = parseCredentials(SignInInput, credentials);
  if (!input) return null;
  const { email, password } = input;
  if (!(await mayAttemptLogin(ip, email))) throw new AuthError("RATE_LIMITED");
  const user = await getDb().user.findUnique({ where: { email }, select: { id: true, email: true, merchantId: true, passwordHash: true } });
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyHash));
  return user && ok ? { id: user.id, email: user.email, merchantId: user.merchantId } : null;
}

export function signUp(credentials: unknown, ip: string): Promise<SignedInUser> {
  return guarded("sign-up", () => createAccount(credentials, ip));
}

async function createAccount(credentials: unknown, ip: string): Promise<SignedInUser> {
  const input = parseCredentials(SignUpInput, credentials);
  if (!input) throw new AuthError("INVALID_SIGNUP");
  if (!(await maySignUp(ip))) throw new AuthError("RATE_LIMITED");
  try {
    const created = await transaction((tx) => createMerchant(tx, input));
    return { id: created.userId!, email: created.userEmail!, merchantId: created.merchantId };
  } catch (err) {
    if (err instanceof ConflictError) throw new AuthError("EMAIL_TAKEN");
    throw err;
  }
}
