// Brakes on password guessing and mass sign-up: token buckets per (client IP, email) for sign-in and per
// client IP for sign-up, in Postgres (they share the API limiter's table and window, with their own sizes).
import { sql } from "../db";
import { env } from "../env";
import { postgresLimiter } from "../rate-limit/postgres-limiter";
import type { RateLimiter } from "../rate-limit/token-bucket";

const globalForLimits = globalThis as unknown as { loginLimiter?: RateLimiter; signupLimiter?: RateLimiter };

function loginLimiter(): RateLimiter {
  globalForLimits.loginLimiter ??= postgresLimiter(sql, { max: env.LOGIN_RATE_LIMIT_MAX, windowMs: env.RATE_LIMIT_WINDOW_MS });
  return globalForLimits.loginLimiter;
}

function signupLimiter(): RateLimiter {
  globalForLimits.signupLimiter ??= postgresLimiter(sql, { max: env.SIGNUP_RATE_LIMIT_MAX, windowMs: env.RATE_LIMIT_WINDOW_MS });
  return globalForLimits.signupLimiter;
}

/** True when this (IP, email) may try a password now. */
export async function mayAttemptLogin(ip: string, email: string): Promise<boolean> {
  return (await loginLimiter().take(`login:${ip}:${email}`)).allowed;
}

export async function maySignUp(ip: string): Promise<boolean> {
  return (await signupLimiter().take(`signup:${ip}`)).allowed;
}
