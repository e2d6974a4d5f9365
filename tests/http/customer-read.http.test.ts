// GET /v1/customers/:id runs its read inside the API-key statement (lib/customers/get-customer.ts, a caller
// statement): ONE database round trip, counted by a proxy in front of PostgreSQL (scripts/lib/pg-round-trips.ts),
// for every answer: the customer, 404 for another merchant's, the other mode's or an unknown id, and the refusals
// 401, 429 and 403 in their order, with the same headers as before (Request-Id, RateLimit-*). With the Redis
// buckets: two (the key, then the read), the same answers.
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countRoundTrips, type RoundTripCounter } from "../../scripts/lib/pg-round-trips";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call, type ApiResponse } from "../helpers/http";
import { randomLoopback } from "../helpers/from-address";
import { createTestMerchant, drainKeyBucket, restrictedTestKey, type TestMerchant } from "../helpers/merchants";
import { redisUrlForTests } from "../helpers/redis";
import { startTestServer } from "../helpers/server";

let counter: RoundTripCounter;
let server: ServerProcess;
let owner: TestMerchant;
let other: TestMerchant;
let customer: Record<string, unknown>;
let liveCustomerId: string;

beforeAll(async () => {
  counter = await countRoundTrips(process.env.DATABASE_URL!);
  [server, owner, other] = await Promise.all([
    startTestServer({ DATABASE_URL: counter.url }),
    createTestMerchant("Customer read"),
    createTestMerchant("Another merchant"),
  ]);
  const created = await call("POST", "/v1/customers", { key: owner.testKey, body: { name: "Ada", metadata: { tier: "gold" } } });
  expect(created.status).toBe(201);
  customer = created.body;
  liveCustomerId = (await call("POST", "/v1/customers", { key: owner.liveKey, body: { name: "Live" } })).body.id;
});

afterAll(async () => {
  await server?.stop();
  await counter?.close();
});

/** The round trips of one read, and its answer. */
async function read(key: string, id: string, base: string): Promise<{ trips: number; res: ApiResponse }> {
  const before = counter.count();
  const res = await call("GET", `/v1/customers/${id}`, { key, base });
  return { trips: counter.count() - before, res };
}

/** A read with an unknown key, from a loopback address of its own (a 401 takes a token from the client IP's bucket). */
async function unknownKeyRead(id: string): Promise<{ trips: number; status: number }> {
  const before = counter.count();
  const headers = { Authorization: `Bearer sk_test_${randomBytes(16).toString("hex")}` };
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(`${server.url}/v1/customers/${id}`, { localAddress: randomLoopback(), headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
  return { trips: counter.count() - before, status };
}

function expectLimitHeaders(res: ApiResponse): void {
  expect(res.headers.get("request-id")).toMatch(/^req_[0-9A-Za-z]{24}$/);
  for (const name of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"]) expect(res.headers.get(name), name).toMatch(/^\d+$/);
}

describe("GET /v1/customers/:id", () => {
  it("one round trip for every answer, refusals in their order", async () => {
    const reader = await restrictedTestKey(owner, { customers: "read" });
    const denied = await restrictedTestKey(owner, { checkouts: "write" });
    const limited = await restrictedTestKey(owner, { customers: "read" });
    await drainKeyBucket(limited.id);
    await drainKeyBucket(denied.id); // 429 comes before 403
    const deniedWithTokens = await restrictedTestKey(owner, { checkouts: "write" });
    const id = customer.id as string;
    for (let i = 0; i < 3; i++) await read(owner.testKey, id, server.url); // warm-up: connections, first parses

    const found = await read(owner.testKey, id, server.url);
    expect(found.res.status).toBe(200);
    expect(found.res.body).toEqual(customer);
    expectLimitHeaders(found.res);
    expect(found.res.headers.get("content-type")).toBe("application/json");

    const restricted = await read(reader.secret, id, server.url);
    expect(restricted.res.body).toEqual(customer);

    const notFound = [
      await read(other.testKey, id, server.url), // another merchant's
      await read(owner.testKey, liveCustomerId, server.url), // the other mode's
      await read(owner.liveKey, id, server.url),
      await read(owner.testKey, "cus_unknown", server.url),
    ];
    for (const { res } of notFound) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
      expectLimitHeaders(res);
    }
    expect(notFound[3].res.body.error.message).toContain("cus_unknown");

    const unknownKey = await unknownKeyRead(id);
    expect(unknownKey.status).toBe(401);
    const rateLimited = await read(limited.secret, id, server.url);
    expect(rateLimited.res.status).toBe(429);
    expect(rateLimited.res.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await read(denied.secret, id, server.url)).res.status).toBe(429);
    const forbidden = await read(deniedWithTokens.secret, id, server.url);
    expect(forbidden.res.status).toBe(403);
    expect(forbidden.res.body.error.details).toMatchObject({ reason: "permission_denied", resource: "customers", required: "read" });

    const all = [found, restricted, ...notFound, unknownKey, rateLimited, forbidden];
    expect(all.map((r) => r.trips)).toEqual(all.map(() => 1));
  });
});

const redisUrl = redisUrlForTests();

describe.skipIf(!redisUrl)("GET /v1/customers/:id with the Redis buckets", () => {
  it("the key is found first, then the read: two round trips, the same answers", async () => {
    const redis = await startTestServer({ DATABASE_URL: counter.url, REDIS_URL: redisUrl! });
    try {
      const id = customer.id as string;
      for (let i = 0; i < 3; i++) await read(owner.testKey, id, redis.url);
      const found = await read(owner.testKey, id, redis.url);
      expect(found.res.body).toEqual(customer);
      expectLimitHeaders(found.res);
      const missing = await read(other.testKey, id, redis.url);
      expect(missing.res.status).toBe(404);
      expect([found.trips, missing.trips]).toEqual([2, 2]);
    } finally {
      await redis.stop();
    }
  });
});
