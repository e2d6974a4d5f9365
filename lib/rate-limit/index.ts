// The process's rate limiter: Redis when REDIS_URL is set, else Postgres.
import { getDb, sql } from "../db";
import { env } from "../env";
import { postgresLimiter } from "./postgres-limiter";
import { redisLimiter } from "./redis-limiter";
import type { RateLimiter } from "./token-bucket";
import { globalSingleton } from "../global-singleton";
import { Prisma } from "../generated/prisma/client";
import { purgeBatch } from "../purge-batch";

export type { RateLimiter, TakeResult } from "./token-bucket";

export const bucketConfig = () => ({ max: env.RATE_LIMIT_MAX, windowMs: env.RATE_LIMIT_WINDOW_MS });

/** True when buckets live in Postgres, where a take can share a statement with other work. */
export const bucketsInPostgres = () => !env.REDIS_URL;

export function getRateLimiter(): RateLimiter {
  const config = bucketConfig();
  const postgres = () => postgresLimiter(sql, config);
  return globalSingleton("rate-limit.limiter", () =>
    env.REDIS_URL ? withFallback(redisLimiter(env.REDIS_URL, config), postgres()) : postgres(),
  );
}

/** A Redis outage must not fail every request: the Postgres buckets take over until Redis answers again. */
function withFallback(primary: RateLimiter, fallback: RateLimiter): RateLimiter {
  let warned = false;
  return {
    async take(key) {
      try {
        return await primary.take(key);
      } catch (err) {
        if (!warned) console.error("rate limiter: Redis failed, using Postgres buckets:", err instanceof Error ? err.message : err);
        warned = true;
        return fallback.take(key);
      }
    },
  };
}

/**
 * Deletes Postgres buckets idle long enough to be full again (an absent bucket is a full one). A scan of
 * the table, one row per active principal: an index on updated_at would make every take a non-HOT update.
 */
export async function purgeIdleBuckets(): Promise<number> {
  const cutoff = new Date(Date.now() - env.RATE_LIMIT_WINDOW_MS);
  // Bounded per tick: the table has no index beside its key (so that the per-request update stays HOT), so the
  // scan stops at the first 5,000 idle rows it finds; a backlog is worked off over a few ticks.
  return purgeBatch(getDb(), "rate_limit_buckets", Prisma.sql`updated_at < ${cutoff}`, null, 5000);
}
