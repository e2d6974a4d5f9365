// What the two next-auth Credentials providers do: check a password (sign-in), or create a merchant with
// its first test and live keys and its first user (sign-up, through the same createMerchant as the CLI).
// Errors thrown here travel to the browser as next-auth's `error` code (AUTH_ERRORS).
import { z } from "zod";
import { getDb, transaction } from "../db";
import { ConflictError } from "../errors";
import { createMerchant } from "../merchants/create-merchant";
import { Email } from "../validation/common";
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

export async function signIn(credentials: unknown, ip: string): Promise<SignedInUser | null> {
  const input = SignInInput.safeParse(credentials);
  if (!input.success) return null;
  const { email, password } = input.data;
  if (!(await mayAttemptLogin(ip, email))) throw new AuthError("RATE_LIMITED");
  const user = await getDb().user.findUnique({ where: { email }, select: { id: true, email: true, merchantId: true, passwordHash: true } });
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyHash));
  return user && ok ? { id: user.id, email: user.email, merchantId: user.merchantId } : null;
}

export async function signUp(credentials: unknown, ip: string): Promise<SignedInUser> {
  const input = SignUpInput.safeParse(credentials);
  if (!input.success) throw new AuthError("INVALID_SIGNUP");
  if (!(await maySignUp(ip))) throw new AuthError("RATE_LIMITED");
  try {
    const created = await transaction((tx) => createMerchant(tx, input.data));
    return { id: created.userId!, email: created.userEmail!, merchantId: created.merchantId };
  } catch (err) {
    if (err instanceof ConflictError) throw new AuthError("EMAIL_TAKEN");
    throw err;
  }
}
