// Sign-in and sign-up error codes (next-auth carries them to the browser as `error`) and their wording.
// Pure: the login and signup forms import it too.
import { ownValue } from "../own-key";

export const AUTH_ERRORS = {
  CredentialsSignin: "Incorrect email or password. Just signed up? Open the link we emailed you first.",
  RATE_LIMITED: "Too many attempts. Wait a few minutes, then try again.",
  BUSY: "The server is busy. Try again in a few seconds.",
  TWO_FACTOR_REQUIRED: "Enter the 6-digit code from your authenticator app.",
  TWO_FACTOR_INVALID: "That code is not right, or was already used. Enter the code your app shows now, or a recovery code.",
  CHECK_EMAIL: "Check your email: we sent a link to finish creating your account.",
  INVALID_SIGNUP: "Check the form: a business name, a valid email and a password of at least 10 characters.",
  SERVER_ERROR: "Something went wrong on our side. Try again in a moment.",
} as const;
export type AuthErrorCode = keyof typeof AUTH_ERRORS;

export const PASSWORD_MIN_LENGTH = 10;

export function authErrorMessage(code: string | null | undefined): string | null {
  if (!code) return null;
  return ownValue<string>(AUTH_ERRORS, code) ?? "Sign-in failed. Try again.";
}
