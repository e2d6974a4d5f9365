// The paid-resource door's first statement (lib/paid-sale/limit-and-find.ts): the client IP's token and the resource
// (with the credential's earlier sale) in ONE database round trip, counted by a proxy in front of PostgreSQL
// (scripts/lib/pg-round-trips.ts). A 402 challenge over x402 or MPP is that one round trip in all, an unknown or
// malformed id's 404 too, and a drained bucket's 429 comes before the 404, with the RateLimit-* headers on every
// answer. With the Redis buckets: the token from Redis, then the read (one round trip to PostgreSQL), the same answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countRoundTrips, type RoundTripCounter } from "../../scripts/lib/pg-round-trips";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call } from "../helpers/http";
import { createTestMerchant } from "../helpers/merchants";
import { redisUrlForTests } from "../helpers/redis";
import { startTestServer } from "../helpers/server";

const LIMIT = 3;
// Each test's requests come through a trusted proxy from an address of their own (a bucket no other file takes
// from), and a one-hour window makes refill negligible.
const limits = { RATE_LIMIT_MAX: String(LIMIT), RATE_LIMIT_WINDOW_MS: "3600000", TRUSTED_PROXY_HOPS: "1" };
let counter: RoundTripCounter;
let server: ServerProcess;
let resourceId: string;

beforeAll(async () => {
  counter = await countRoundTrips(process.env.DATABASE_URL!);
  const [started, seller] = await Promise.all([
    startTestServer({ DATABASE_URL: counter.url, ...limits }),
    createTestMerchant("Door seller"),
  ]);
  server = started;
  const created = await call("POST", "/v1/paid_resources", {
    key: seller.testKey,
    body: { name: "Door", amount: 5, currency: "usd", content: { ok: true } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  resourceId = created.body.id;
});

afterAll(async () => {
  await server?.stop();
  await counter?.close();
});

const hex = () => Math.floor(Math.random() * 0xffff).toString(16);
const newAddress = () => `2001:db8:${hex()}:${hex()}::1`;

/** One GET of a door's path from `from`, its round trips, status and headers. */
async function door(path: string, from: string, base = server.url) {
  const before = counter.count();
  const res = await fetch(`${base}${path}`, { headers: { "X-Forwarded-For": from } });
  await res.arrayBuffer();
  return { trips: counter.count() - before, status: res.status, headers: res.headers };
}

function expectLimitHeaders(headers: Headers, remaining: number): void {
  expect(headers.get("ratelimit-limit")).toBe(String(LIMIT));
  expect(headers.get("ratelimit-remaining")).toBe(String(remaining));
  expect(headers.get("ratelimit-reset")).toMatch(/^\d+$/);
}

describe("the paid-resource door's first statement", () => {
  it("x402 and MPP challenges, unknown and malformed ids: one round trip each, the token counted", async () => {
    const warm = newAddress();
    for (const path of [`/x402/r/${resourceId}`, `/mpp/r/${resourceId}`]) await door(path, warm); // first parses

    const from = newAddress();
    const x402 = await door(`/x402/r/${resourceId}`, from);
    expect(x402.status).toBe(402);
    expect(x402.headers.get("payment-required")).toBeTruthy();
    expectLimitHeaders(x402.headers, 2);
    const mpp = await door(`/mpp/r/${resourceId}`, from);
    expect(mpp.status).toBe(402);
    expect(mpp.headers.get("www-authenticate")).toMatch(/^Payment /);
    expectLimitHeaders(mpp.headers, 1);
    const unknown = await door("/x402/r/xr_doesnotexist", from);
    expect(unknown.status).toBe(404);
    expectLimitHeaders(unknown.headers, 0);

    const other = newAddress();
    const malformed = await door("/mpp/r/not-an-id", other);
    expect(malformed.status).toBe(404);
    expectLimitHeaders(malformed.headers, 2);

    expect([x402, mpp, unknown, malformed].map((r) => r.trips)).toEqual([1, 1, 1, 1]);
  });

  it("a credential too deeply nested to fingerprint: 400, and the client IP's token taken all the same", async () => {
    const from = newAddress();
    let nested: unknown = 1;
    for (let i = 0; i < 80; i++) nested = [nested];
    const header = Buffer.from(JSON.stringify({ x402Version: 2, nested })).toString("base64");
    const res = await fetch(`${server.url}/x402/r/${resourceId}`, { headers: { "X-Forwarded-For": from, "PAYMENT-SIGNATURE": header } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expectLimitHeaders(res.headers, LIMIT - 1);
    expectLimitHeaders((await door(`/x402/r/${resourceId}`, from)).headers, LIMIT - 2);
  });

  it("a drained bucket: 429 before 404, in that one statement, the resource never served", async () => {
    const from = newAddress();
    for (let i = 0; i < LIMIT; i++) expect((await door(`/x402/r/${resourceId}`, from)).status).toBe(402);
    const limited = await door(`/x402/r/${resourceId}`, from);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(limited.headers.get("payment-required")).toBeNull();
    expectLimitHeaders(limited.headers, 0);
    const unknown = await door("/mpp/r/xr_doesnotexist", from);
    expect(unknown.status).toBe(429);
    expect([limited.trips, unknown.trips]).toEqual([1, 1]);
  });
});

const redisUrl = redisUrlForTests();

describe.skipIf(!redisUrl)("the door with the Redis buckets", () => {
  it("the token from Redis, then the read: the same answers", async () => {
    const redis = await startTestServer({ DATABASE_URL: counter.url, REDIS_URL: redisUrl!, ...limits });
    try {
      const from = newAddress();
      await door(`/x402/r/${resourceId}`, newAddress(), redis.url); // first parses
      const x402 = await door(`/x402/r/${resourceId}`, from, redis.url);
      expect(x402.status).toBe(402);
      expectLimitHeaders(x402.headers, 2);
      const unknown = await door("/x402/r/xr_doesnotexist", from, redis.url);
      expect(unknown.status).toBe(404);
      expect([x402.trips, unknown.trips]).toEqual([1, 1]);
      await door(`/x402/r/${resourceId}`, from, redis.url);
      expect((await door(`/x402/r/${resourceId}`, from, redis.url)).status).toBe(429);
    } finally {
      await redis.stop();
    }
  });
});
