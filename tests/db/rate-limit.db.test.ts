// Both rate-limit backends are atomic under concurrency: of N simultaneous takes on one bucket,
// exactly `max` succeed, and another bucket is untouched. The Postgres buckets' takes are HOT updates.
import { randomUUID } from "node:crypto";
import Redis from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { getPool, sql, sqlOn } from "../../lib/db";
import { postgresLimiter } from "../../lib/rate-limit/postgres-limiter";
import { redisLimiter } from "../../lib/rate-limit/redis-limiter";
import type { RateLimiter } from "../../lib/rate-limit/token-bucket";
import { redisUrlForTests } from "../helpers/redis";

const config = { max: 50, windowMs: 3_600_000 }; // refill is negligible during the test

const redisUrl = redisUrlForTests();
const backends: [string, () => RateLimiter][] = [["postgres", () => postgresLimiter(sql, config)]];
if (redisUrl) backends.push(["redis", () => redisLimiter(redisUrl, config)]);

afterAll(async () => {
  if (redisUrl) {
    const redis = new Redis(redisUrl);
    const keys = await redis.keys("ratelimit:dbtest-*");
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
});

describe.each(backends)("%s token bucket", (_name, makeLimiter) => {
  it("lets exactly `max` of 120 concurrent requests through, and counts down", async () => {
    const limiter = makeLimiter();
    const key = `dbtest-${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 120 }, () => limiter.take(key)));
    expect(results.filter((r) => r.allowed)).toHaveLength(config.max);
    const refused = results.filter((r) => !r.allowed);
    expect(refused).toHaveLength(120 - config.max);
    for (const r of refused) expect(r.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    const remaining = results
      .filter((r) => r.allowed)
      .map((r) => r.remaining)
      .sort((a, b) => a - b);
    expect(remaining[0]).toBe(0);
    expect(remaining.at(-1)).toBe(config.max - 1);
  });

  it("keeps buckets apart", async () => {
    const limiter = makeLimiter();
    const [a, b] = [`dbtest-${randomUUID()}`, `dbtest-${randomUUID()}`];
    await Promise.all(Array.from({ length: config.max + 5 }, () => limiter.take(a)));
    expect((await limiter.take(a)).allowed).toBe(false);
    expect(await limiter.take(b)).toMatchObject({ allowed: true, remaining: config.max - 1 });
  });

  it("refills over time", async () => {
    const fast = { max: 2, windowMs: 400 }; // one token per 200 ms
    const limiter = _name === "redis" ? redisLimiter(redisUrl!, fast) : postgresLimiter(sql, fast);
    const key = `dbtest-${randomUUID()}`;
    expect((await limiter.take(key)).allowed).toBe(true);
    expect((await limiter.take(key)).allowed).toBe(true);
    expect((await limiter.take(key)).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await limiter.take(key)).allowed).toBe(true);
  });
});

describe("the Postgres bucket table", () => {
  // Every request of a key rewrites that key's row: a non-HOT update would leave a dead version chain and
  // new index entries per request (the request pipeline's GET slowed down round after round).
  it("is unlogged, and a take is a HOT update (the new row version needs no index entry)", async () => {
    const client = await getPool().connect();
    try {
      const { rows } = await client.query("SELECT relpersistence FROM pg_class WHERE relname = 'rate_limit_buckets'");
      expect(rows[0].relpersistence).toBe("u");
      // One connection, so that its own statistics can be flushed on demand; other test files may add theirs.
      const counters = async () => {
        await client.query("SELECT pg_stat_force_next_flush()");
        const { rows } = await client.query<{ upd: string; hot: string }>(
          "SELECT n_tup_upd AS upd, n_tup_hot_upd AS hot FROM pg_stat_user_tables WHERE relname = 'rate_limit_buckets'",
        );
        return { updates: Number(rows[0].upd), hot: Number(rows[0].hot) };
      };
      const limiter = postgresLimiter(() => sqlOn(client), config);
      const key = `dbtest-${randomUUID()}`;
      await limiter.take(key); // the insert
      const before = await counters();
      for (let i = 0; i < 30; i++) {
        await new Promise((resolve) => setTimeout(resolve, 2)); // each take moves updated_at (millisecond precision)
        await limiter.take(key);
      }
      const after = await counters();
      const updates = after.updates - before.updates;
      expect(updates).toBeGreaterThanOrEqual(30);
      expect(after.hot - before.hot).toBeGreaterThanOrEqual(updates * 0.9);
    } finally {
      client.release();
    }
  });
});
