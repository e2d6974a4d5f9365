// Token buckets in Postgres: one atomic upsert per request. Concurrent requests for one key serialize on
// the row lock, so the limit holds across any number of app processes sharing the database. The table is
// unlogged with free space on each page and no index on a column the upsert changes, so that the update
// is HOT (the hot row's page prunes its own dead versions; see the table's migration).
import { statement, type Sql } from "../db";
import { describeBucket, refillPerMs, type BucketConfig, type RateLimiter, type TakeResult } from "./token-bucket";

/**
 * The take-one-token upsert, as SQL text. `source` is a SELECT yielding (key, tokens, allowed, updated_at)
 * for a new bucket, built with the `full` expression; it may read from a CTE (the authenticated pipeline
 * selects the key of the API key it finds). `max` and `perMs` name the statement's parameters holding the
 * bucket's size and refill rate. The SET expressions read the row's old values, so refill and take happen
 * in one atomic step.
 */
export function takeTokenText(max: string, perMs: string, source: (full: string) => string): string {
  const refilled = `LEAST(${max}::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM (now() - b.updated_at)) * 1000) * ${perMs}::float8)`;
  return `
    INSERT INTO rate_limit_buckets AS b (key, tokens, allowed, updated_at)
    ${source(`${max}::float8 - 1, true, now()`)}
    ON CONFLICT (key) DO UPDATE SET
      tokens = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
      allowed = ${refilled} >= 1,
      updated_at = GREATEST(b.updated_at, now())
    RETURNING tokens, allowed`;
}

const TAKE = statement(
  "rate_limit_take",
  takeTokenText("$2", "$3", (full) => `SELECT $1, ${full}`),
);

export function postgresLimiter(db: () => Sql, config: BucketConfig): RateLimiter {
  return {
    async take(key: string): Promise<TakeResult> {
      const [row] = await db().rows<{ tokens: number; allowed: boolean }>(TAKE, [key, config.max, refillPerMs(config)]);
      return describeBucket(config, row.allowed, Number(row.tokens));
    },
  };
}
