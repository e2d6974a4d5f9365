// Brakes on password guessing and mass sign-up, all in Postgres (shared by every app process):
// - per client IP across emails (password spraying): LOGIN_IP_RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_MS;
// - per (client IP, email): LOGIN_RATE_LIMIT_MAX per window;
// - per email across IPs, with back-off (brute force of one account from many IPs or a whole /64): every
//   attempt counts until a success clears it; past LOGIN_ACCOUNT_FAILURES_MAX each attempt blocks the
//   email for 1 s, 2 s, 4 s, ... up to LOGIN_BACKOFF_MAX_SECONDS (sign_in_throttles), counted again from
//   the answer when the password was wrong. Counting the attempt up front, in one atomic upsert, means
//   concurrent attempts cannot slip past the back-off together;
// - sign-ups per client IP: SIGNUP_RATE_LIMIT_MAX per window;
// - the account endpoints behind emailed links (forgot password, reset password, confirm a sign-up) per
//   client IP (PASSWORD_RESET_IP_RATE_LIMIT_MAX), taken before the body is read and before any password
//   hashing, so a flood of them cannot fill the hashing gate sign-in shares; "forgot password" also per
//   email, known or not (PASSWORD_RESET_EMAIL_RATE_LIMIT_MAX): nobody can flood an inbox with reset mails.
// The client IP is a bucket name from lib/http/client-ip.ts (IPv4, or the IPv6 /64). Token buckets share
// the API limiter's table and window, with their own sizes.
import { getDb, sql, statement, type Db } from "../db";
import { env } from "../env";
import { postgresLimiter } from "../rate-limit/postgres-limiter";
import type { RateLimiter, TakeResult } from "../rate-limit/token-bucket";
import { globalSingleton } from "../global-singleton";
import { Prisma } from "../generated/prisma/client";
import { purgeBatch } from "../purge-batch";

type LimiterName = "loginLimiter" | "loginIpLimiter" | "signupLimiter" | "accountIpLimiter" | "resetEmailLimiter";
function limiter(name: LimiterName, max: number): RateLimiter {
  return globalSingleton(`auth.limiter.${name}`, () => postgresLimiter(sql, { max, windowMs: env.RATE_LIMIT_WINDOW_MS }));
}

/** Attempts on an email with no attempt for this long start counting from zero again. */
export const ACCOUNT_ATTEMPTS_FORGOTTEN_AFTER_HOURS = 24;

// $1 email, $2 attempts before back-off, $3 longest back-off (s). The attempt is counted and, from the
// threshold on, blocks the next ones for 2^(count - threshold) s. While the email is blocked the WHERE
// leaves its row as it is (a refused attempt does not lengthen the block) and no row comes back.
const blockAfter = (count: string) =>
  `CASE WHEN ${count} >= $2::int THEN now() + LEAST($3::float8, power(2, ${count} - $2::int)) * interval '1 second' END`;
const forgotten = `t.last_attempt_at < now() - make_interval(hours => ${ACCOUNT_ATTEMPTS_FORGOTTEN_AFTER_HOURS})`;
const TAKE_ACCOUNT_ATTEMPT = statement(
  "sign_in_account_attempt",
  `INSERT INTO sign_in_throttles AS t (email, failures, last_attempt_at, blocked_until)
   VALUES ($1, 1, now(), ${blockAfter("1")})
   ON CONFLICT (email) DO UPDATE SET
     failures = CASE WHEN ${forgotten} THEN 1 ELSE t.failures + 1 END,
     blocked_until = CASE WHEN ${forgotten} THEN ${blockAfter("1")} ELSE ${blockAfter("(t.failures + 1)")} END,
     last_attempt_at = now()
   WHERE t.blocked_until IS NULL OR t.blocked_until <= now()
   RETURNING t.failures`,
);

const BLOCKED_FOR = statement(
  "sign_in_account_blocked_for",
  "SELECT GREATEST(0, EXTRACT(EPOCH FROM (blocked_until - now())))::float8 AS seconds FROM sign_in_throttles WHERE email = $1",
);

// A wrong password past the threshold: the wait counts from the answer, not from the attempt's start (a
// hash may take seconds on a busy machine). Only ever lengthens a block.
const RESTART_BLOCK = statement(
  "sign_in_account_failed",
  `UPDATE sign_in_throttles AS t SET blocked_until = GREATEST(t.blocked_until, ${blockAfter("t.failures")})
    WHERE email = $1 AND t.failures >= $2::int`,
);

export type LoginVerdict = { allowed: true; attempts: number } | { allowed: false; retryAfterSeconds: number };

/**
 * Takes what one sign-in attempt costs: a token from the IP's bucket, then from the (IP, email) bucket,
 * then the email's account counter (refused while it is backing off). The buckets come first so that an
 * attempt they refuse never counts against the account: a spraying IP, once out of tokens, can no longer
 * keep other people's accounts backing off, nor add rows for made-up emails.
 */
export async function takeLoginAttempt(ip: string, email: string): Promise<LoginVerdict> {
  const perIp = await limiter("loginIpLimiter", env.LOGIN_IP_RATE_LIMIT_MAX).take(`login-ip:${ip}`);
  if (!perIp.allowed) return { allowed: false, retryAfterSeconds: perIp.retryAfterSeconds };
  const perIpAndEmail = await limiter("loginLimiter", env.LOGIN_RATE_LIMIT_MAX).take(`login:${ip}:${email}`);
  if (!perIpAndEmail.allowed) return { allowed: false, retryAfterSeconds: perIpAndEmail.retryAfterSeconds };
  const counted = await sql().rows<{ failures: number }>(TAKE_ACCOUNT_ATTEMPT, [
    email,
    env.LOGIN_ACCOUNT_FAILURES_MAX,
    env.LOGIN_BACKOFF_MAX_SECONDS,
  ]);
  if (counted.length === 0) {
    const [blocked] = await sql().rows<{ seconds: number }>(BLOCKED_FOR, [email]);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Number(blocked?.seconds ?? 1))) };
  }
  return { allowed: true, attempts: counted[0].failures };
}

/** A wrong password (or unknown email): a back-off the attempt started runs from now. */
export async function noteFailedLogin(email: string, attempts: number): Promise<void> {
  if (attempts < env.LOGIN_ACCOUNT_FAILURES_MAX) return;
  await sql().count(RESTART_BLOCK, [email, env.LOGIN_ACCOUNT_FAILURES_MAX, env.LOGIN_BACKOFF_MAX_SECONDS]);
}

/** A successful sign-in clears the email's attempts (and any back-off). */
export async function clearLoginAttempts(email: string): Promise<void> {
  await getDb().signInThrottle.deleteMany({ where: { email } });
}

export async function maySignUp(ip: string): Promise<boolean> {
  return (await limiter("signupLimiter", env.SIGNUP_RATE_LIMIT_MAX).take(`signup:${ip}`)).allowed;
}

/** One request to an account endpoint behind an emailed link: a token from the client IP's bucket. */
export function takeAccountRequest(ip: string): Promise<TakeResult> {
  return limiter("accountIpLimiter", env.PASSWORD_RESET_IP_RATE_LIMIT_MAX).take(`account-ip:${ip}`);
}

/** A "forgot password" request's second token: from the email's bucket (known or not). */
export function takePasswordResetEmail(email: string): Promise<TakeResult> {
  return limiter("resetEmailLimiter", env.PASSWORD_RESET_EMAIL_RATE_LIMIT_MAX).take(`reset-email:${email}`);
}

/** Account counters one purge deletes at most (one row per email tried, known or not: a spray makes many). */
export const PURGE_BATCH = 5_000;

/**
 * Deletes account counters idle long enough to be forgotten and no longer blocking (the tick calls this), at
 * most PURGE_BATCH a call, the longest idle first along the last_attempt_at index: a backlog drains over a few
 * ticks. The DELETE re-checks the row it deletes: an attempt counted meanwhile keeps its counter. Returns how
 * many it deleted.
 */
export async function purgeSignInThrottles(db: Db, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - ACCOUNT_ATTEMPTS_FORGOTTEN_AFTER_HOURS * 3600_000);
  const idle = Prisma.sql`last_attempt_at < ${before} AND (blocked_until IS NULL OR blocked_until < ${now})`;
  return purgeBatch(db, "sign_in_throttles", idle, "last_attempt_at", PURGE_BATCH);
}
