// docs/api-reference.md "Rate limits": token bucket per API key (120 per 60 s by default, burst 120), per IP on public
// paths, probes never limited; the limit holds across two processes sharing one store (both backends).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { burst } from "../helpers/burst";
import { randomLoopback, statusFrom } from "../helpers/from-address";
import { call, type ApiResponse } from "../helpers/http";
import { createTestMerchant } from "../helpers/merchants";
import { redisUrlForTests } from "../helpers/redis";
import { startTestServer } from "../helpers/server";

describe("rate limits with the default settings", () => {
  // A server of its own at the defaults: the shared one's limits are raised for the files that make many calls.
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.stop());

  it("a burst of 120 passes, then 429 RATE_LIMITED with Retry-After; another key is unaffected", async () => {
    const [m, other] = await Promise.all([createTestMerchant(), createTestMerchant()]);
    const customers = (key: string) => call("GET", "/v1/customers", { key, base: server.url });
    const first = await burst(120, () => customers(m.testKey));
    expect(first.map((r) => r.status)).toEqual(Array(120).fill(200));
    expect(first[0].headers.get("ratelimit-limit")).toBe("120");
    // Tokens come back at 2 per second: a wave of 25 at once outruns the refill even on a slow machine.
    let limited: ApiResponse[] = [];
    for (let wave = 0; wave < 4 && limited.length === 0; wave++) {
      const next = await burst(25, () => customers(m.testKey), 25);
      limited = next.filter((r) => r.status === 429);
    }
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0].body).toEqual({
      error: { code: "RATE_LIMITED", message: expect.any(String), details: { retryAfterSeconds: expect.any(Number) } },
    });
    expect(Number(limited[0].headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited[0].headers.get("ratelimit-remaining")).toBe("0");

    const otherKey = await customers(other.testKey);
    expect(otherKey.status).toBe(200);
    expect(Number(otherKey.headers.get("ratelimit-remaining"))).toBeGreaterThan(100);
    // The same merchant's live key is its own principal, with its own budget.
    expect((await customers(m.liveKey)).status).toBe(200);
  });

  it("/health and /ready are never limited", async () => {
    const results = await burst(300, (i) => call("GET", i % 2 ? "/health" : "/ready", { base: server.url }), 25);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results[0].headers.get("ratelimit-limit")).toBeNull();
  });

  it("failed authentication is limited per client IP", async () => {
    // Every server of the run shares one bucket table, and other files call public paths from 127.0.0.1:
    // these requests come from a loopback address of their own, so no one else takes from their bucket.
    const server = await startTestServer({ RATE_LIMIT_MAX: "5", RATE_LIMIT_WINDOW_MS: "3600000" });
    const from = randomLoopback();
    const customers = (headers: Record<string, string> = {}) =>
      statusFrom(from, `${server.url}/v1/customers`, { Authorization: "Bearer sk_test_bad", ...headers });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push(await customers());
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      // A client cannot pick another bucket by sending its own X-Forwarded-For.
      expect(await customers({ "X-Forwarded-For": "203.0.113.9" })).toBe(429);
    } finally {
      await server.stop();
    }
  });
});

describe("a Redis outage", () => {
  it("does not fail requests: the Postgres buckets take over", async () => {
    const server = await startTestServer({ REDIS_URL: "redis://127.0.0.1:1" }); // nothing listens there
    try {
      const m = await createTestMerchant();
      const results = await burst(5, () => call("GET", "/v1/customers", { key: m.testKey, base: server.url }), 5);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(results.every((r) => r.headers.get("ratelimit-limit") === "120")).toBe(true);
    } finally {
      await server.stop();
    }
  });
});

const redisUrl = redisUrlForTests();
const backends: [string, Record<string, string>][] = [["postgres", {}]];
if (redisUrl) backends.push(["redis", { REDIS_URL: redisUrl }]);

describe.each(backends)("two server processes sharing the %s backend", (_name, backendEnv) => {
  let servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it("hold one key to one budget: of 160 requests split across both, exactly 120 pass", async () => {
    // A one-hour window makes refill negligible, so the count is exact.
    const env = { ...backendEnv, RATE_LIMIT_WINDOW_MS: "3600000" };
    servers = await Promise.all([startTestServer(env), startTestServer(env)]);
    const m = await createTestMerchant();
    const results = await burst(160, (i) => call("GET", "/v1/customers", { key: m.testKey, base: servers[i % 2].url }), 20);
    expect(results.filter((r) => r.status === 200)).toHaveLength(120);
    expect(results.filter((r) => r.status === 429)).toHaveLength(40);
    const passedPerServer = [0, 1].map((s) => results.filter((r, i) => i % 2 === s && r.status === 200).length);
    expect(passedPerServer.every((n) => n > 0)).toBe(true);
  });
});
