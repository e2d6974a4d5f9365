// Token buckets in Postgres: one atomic upsert per request. Concurrent requests for one key serialize on
// the row lock, so the limit holds across any number of app processes sharing the database.
import type { Db } from "../db";
import { Prisma } from "../generated/prisma/client";
import { describeBucket, refillPerMs, type BucketConfig, type RateLimiter, type TakeResult } from "./token-bucket";

/**
 * The take-one-token upsert. `source` is a SELECT yielding (key, tokens, allowed, updated_at) for a new
 * bucket; it may read from a CTE (the authenticated pipeline selects the key of the API key it finds).
 * The SET expressions read the row's old values, so refill and take happen in one atomic step.
 */
export function takeTokenSql(config: BucketConfig, source: (full: Prisma.Sql) => Prisma.Sql): Prisma.Sql {
  const refilled = Prisma.sql`LEAST(${config.max}::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM (now() - b.updated_at)) * 1000) * ${refillPerMs(config)}::float8)`;
  return Prisma.sql`
    INSERT INTO rate_limit_buckets AS b (key, tokens, allowed, updated_at)
    ${source(Prisma.sql`${config.max - 1}::float8, true, now()`)}
    ON CONFLICT (key) DO UPDATE SET
      tokens = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
      allowed = ${refilled} >= 1,
      updated_at = GREATEST(b.updated_at, now())
    RETURNING tokens, allowed`;
}

export function postgresLimiter(db: () => Db, config: BucketConfig): RateLimiter {
  return {
    async take(key: string): Promise<TakeResult> {
      const rows = await db().$queryRaw<{ tokens: number; allowed: boolean }[]>(takeTokenSql(config, (full) => Prisma.sql`SELECT ${key}, ${full}`));
      return describeBucket(config, rows[0].allowed, Number(rows[0].tokens));
    },
  };
}
