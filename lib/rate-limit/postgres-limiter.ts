// Token buckets in Postgres: one atomic upsert per request. Concurrent requests for one key serialize on
// the row lock, so the limit holds across any number of app processes sharing the database.
import type { Db } from "../db";
import { describeBucket, refillPerMs, type BucketConfig, type RateLimiter, type TakeResult } from "./token-bucket";

export function postgresLimiter(db: () => Db, config: BucketConfig): RateLimiter {
  const perMs = refillPerMs(config);
  return {
    async take(key: string): Promise<TakeResult> {
      const rows = await db().$queryRaw<{ tokens: number; allowed: boolean }[]>`
        WITH params AS (SELECT ${config.max}::float8 AS max, ${perMs}::float8 AS per_ms)
        INSERT INTO rate_limit_buckets AS b (key, tokens, allowed, updated_at)
        SELECT ${key}, params.max - 1, true, now() FROM params
        ON CONFLICT (key) DO UPDATE SET
          tokens = (SELECT CASE WHEN r.refilled >= 1 THEN r.refilled - 1 ELSE r.refilled END
                    FROM (SELECT LEAST(p.max, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM (now() - b.updated_at)) * 1000) * p.per_ms) AS refilled
                          FROM params p) r),
          allowed = (SELECT LEAST(p.max, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM (now() - b.updated_at)) * 1000) * p.per_ms) >= 1
                     FROM params p),
          updated_at = GREATEST(b.updated_at, now())
        RETURNING tokens, allowed`;
      const row = rows[0];
      return describeBucket(config, row.allowed, Number(row.tokens));
    },
  };
}
