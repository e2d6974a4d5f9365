// Dynamic client registration is open to anyone (RFC 7591), so each client IP may register at most
// OAUTH_REGISTER_RATE_LIMIT_MAX clients per RATE_LIMIT_WINDOW_MS: a bucket of its own beside the per-IP
// bucket every /oauth request takes from, so the address's other OAuth calls are not starved by it. Postgres
// buckets, shared by every process (as the sign-up limit, lib/auth/limits.ts).
import { sql } from "../db";
import { env } from "../env";
import { RateLimitedError } from "../errors";
import { clientIpKey } from "../http/client-ip";
import { postgresLimiter } from "../rate-limit/postgres-limiter";
import { globalSingleton } from "../global-singleton";

/** Takes a registration token for the request's client IP; 429 (OAuth's error shape, lib/oauth/public-route.ts) when none is left. */
export async function takeRegistration(req: Request, headers: Headers): Promise<void> {
  const limiter = globalSingleton("oauth.register-limiter", () =>
    postgresLimiter(sql, { max: env.OAUTH_REGISTER_RATE_LIMIT_MAX, windowMs: env.RATE_LIMIT_WINDOW_MS }),
  );
  const taken = await limiter.take(`oauth-register:${clientIpKey(req)}`);
  if (taken.allowed) return;
  headers.set("Retry-After", String(taken.retryAfterSeconds));
  throw new RateLimitedError(taken.retryAfterSeconds);
}
