// The process's rate limiter: Redis when REDIS_URL is set, else Postgres.
import { getDb } from "../db";
import { env } from "../env";
import { postgresLimiter } from "./postgres-limiter";
import { redisLimiter } from "./redis-limiter";
import type { RateLimiter } from "./token-bucket";

export type { RateLimiter, TakeResult } from "./token-bucket";

const globalForLimiter = globalThis as unknown as { rateLimiter?: RateLimiter };

export function getRateLimiter(): RateLimiter {
  const config = { max: env.RATE_LIMIT_MAX, windowMs: env.RATE_LIMIT_WINDOW_MS };
  globalForLimiter.rateLimiter ??= env.REDIS_URL ? redisLimiter(env.REDIS_URL, config) : postgresLimiter(getDb, config);
  return globalForLimiter.rateLimiter;
}

/** Deletes Postgres buckets idle long enough to be full again (an absent bucket is a full one). */
export async function purgeIdleBuckets(): Promise<number> {
  const cutoff = new Date(Date.now() - env.RATE_LIMIT_WINDOW_MS);
  const { count } = await getDb().rateLimitBucket.deleteMany({ where: { updatedAt: { lt: cutoff } } });
  return count;
}
