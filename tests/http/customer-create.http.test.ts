// POST /v1/customers runs its insert inside the API-key statement, beside the idempotency claim, which is written
// already stored with the answer (a route's write, lib/http/route-write.ts): ONE database round trip, counted by a
// proxy in front of PostgreSQL (scripts/lib/pg-round-trips.ts), for the create, its replay, a reused key, a key in
// flight, and the refusals 401, 429, 403 and 400 in their order, with the same headers (Request-Id, RateLimit-*).
// A refused request writes nothing and claims nothing. With the Redis buckets: the key first, then the claim and the
// write with its stored answer, the same answers.
import { randomBytes, randomUUID } from "node:crypto";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
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

beforeAll(async () => {
  counter = await countRoundTrips(process.env.DATABASE_URL!);
  [server, owner] = await Promise.all([startTestServer({ DATABASE_URL: counter.url }), createTestMerchant("Customer create")]);
});

afterAll(async () => {
  await server?.stop();
  await counter?.close();
});

/** The round trips of one create, and its answer. */
async function create(key: string, body: unknown, idem: string | null, base = server.url): Promise<{ trips: number; res: ApiResponse }> {
  const before = counter.count();
  const headers: Record<string, string> = idem === null ? {} : { "Idempotency-Key": idem };
  const res = await call("POST", "/v1/customers", { key, body, headers, base });
  return { trips: counter.count() - before, res };
}

/** A create with an unknown key, from a loopback address of its own (a 401 takes a token from the client IP's bucket). */
async function unknownKeyCreate(idem: string): Promise<{ trips: number; status: number }> {
  const before = counter.count();
  const headers = {
    Authorization: `Bearer sk_test_${randomBytes(16).toString("hex")}`,
    "Content-Type": "application/json",
    "Idempotency-Key": idem,
  };
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(`${server.url}/v1/customers`, { method: "POST", localAddress: randomLoopback(), headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(JSON.stringify({ name: "Nobody" }));
  });
  return { trips: counter.count() - before, status };
}

/** The answer's JSON text (as sent: parsing and stringifying it again gives it back). */
const textOf = (r: { res: ApiResponse }) => JSON.stringify(r.res.body);

function expectLimitHeaders(res: ApiResponse): void {
  expect(res.headers.get("request-id")).toMatch(/^req_[0-9A-Za-z]{24}$/);
  for (const name of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"]) expect(res.headers.get(name), name).toMatch(/^\d+$/);
}

/** The owner's customers by name, and the idempotency records holding this key. */
async function written(name: string, idem: string): Promise<{ customers: number; records: number }> {
  const [customers, records] = await Promise.all([
    getDb().customer.count({ where: { merchantId: owner.merchantId, name } }),
    getDb().idempotencyRecord.count({ where: { key: idem } }),
  ]);
  return { customers, records };
}

describe("POST /v1/customers", () => {
  it("one round trip for the create, its replay and a reused key; the stored answer is the answer", async () => {
    for (let i = 0; i < 3; i++) await create(owner.testKey, { name: "warm-up" }, randomUUID()); // connections, first parses
    const idem = randomUUID();
    const body = { name: "Ada", email: "ada@example.com", metadata: { tier: "gold", a: "1" } };
    const created = await create(owner.testKey, body, idem);
    expect(created.res.status).toBe(201);
    expect(created.res.headers.get("idempotent-replayed")).toBeNull();
    expectLimitHeaders(created.res);
    expect(created.res.headers.get("content-type")).toBe("application/json");
    expect(created.res.body).toEqual({
      id: expect.stringMatching(/^cus_/),
      object: "customer",
      name: "Ada",
      email: "ada@example.com",
      metadata: { tier: "gold", a: "1" },
      livemode: false,
      createdAt: expect.any(String),
    });
    const read = await call("GET", `/v1/customers/${created.res.body.id}`, { key: owner.testKey });
    expect(read.body).toEqual(created.res.body);
    const [record] = await getDb().idempotencyRecord.findMany({ where: { key: idem } });
    expect(record).toMatchObject({ status: "stored", responseStatus: 201, responseBody: textOf(created) });

    const replay = await create(owner.testKey, { metadata: { a: "1", tier: "gold" }, email: "ada@example.com", name: "Ada" }, idem);
    expect(replay.res.status).toBe(201);
    expect(replay.res.headers.get("idempotent-replayed")).toBe("true");
    expect(textOf(replay)).toBe(textOf(created));
    expectLimitHeaders(replay.res);

    const reused = await create(owner.testKey, { name: "Grace" }, idem);
    expect(reused.res.status).toBe(400);
    expect(reused.res.body.error.details.reason).toBe("idempotency_key_reused");

    const noKey = await create(owner.testKey, { name: "Keyless" }, null);
    expect(noKey.res.status).toBe(201);
    const live = await create(owner.liveKey, { name: "Live" }, idem); // keys are per API key and mode
    expect(live.res.body).toMatchObject({ name: "Live", livemode: true });
    const liveReplay = await create(owner.liveKey, { name: "Live" }, idem);
    expect(textOf(liveReplay)).toBe(textOf(live));

    expect(await written("Ada", idem)).toEqual({ customers: 1, records: 2 });
    const all = [created, replay, reused, noKey, live, liveReplay];
    expect(all.map((r) => r.trips)).toEqual(all.map(() => 1));
  });

  it("a key in flight is 409 and writes nothing; one past its lock is taken over", async () => {
    const writer = await restrictedTestKey(owner, { customers: "write" });
    const inFlight = randomUUID();
    const stale = randomUUID();
    await getDb().$executeRaw`
      INSERT INTO idempotency_records (id, api_key_id, livemode, key, fingerprint, status, locked_until, created_at)
      VALUES (${`idem_${randomUUID()}`}, ${writer.id}, false, ${inFlight}, 'another request', 'in_flight', now() + interval '1 hour', now()),
             (${`idem_${randomUUID()}`}, ${writer.id}, false, ${stale}, 'a dead request', 'in_flight', now() - interval '1 second', now())`;
    const busy = await create(writer.secret, { name: "Busy" }, inFlight);
    expect(busy.res.status).toBe(409);
    expect(busy.res.body.error.details.reason).toBe("idempotency_in_flight");
    expect(await written("Busy", inFlight)).toEqual({ customers: 0, records: 1 });

    const takenOver = await create(writer.secret, { name: "Taken over" }, stale);
    expect(takenOver.res.status).toBe(201);
    const replay = await create(writer.secret, { name: "Taken over" }, stale);
    expect(textOf(replay)).toBe(textOf(takenOver));
    expect(await written("Taken over", stale)).toEqual({ customers: 1, records: 1 });
    expect([busy.trips, takenOver.trips, replay.trips]).toEqual([1, 1, 1]);
  });

  it("a write the database refuses is a 500 that writes nothing and claims nothing: the retry runs afresh", async () => {
    // A real failure of the one statement: a trigger refusing this test's customer name (and only it).
    const name = `Refused ${randomUUID()}`;
    const trigger = `refuse_${randomUUID().replaceAll("-", "")}`;
    await getDb().$executeRawUnsafe(
      `CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.name = '${name}' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`,
    );
    await getDb().$executeRawUnsafe(`CREATE TRIGGER ${trigger} BEFORE INSERT ON customers FOR EACH ROW EXECUTE FUNCTION ${trigger}()`);
    const idem = randomUUID();
    try {
      const refused = await create(owner.testKey, { name }, idem);
      expect(refused.res.status).toBe(500);
      expect(refused.res.body.error.code).toBe("INVARIANT_VIOLATION");
      expect(await written(name, idem)).toEqual({ customers: 0, records: 0 });
    } finally {
      await getDb().$executeRawUnsafe(`DROP TRIGGER ${trigger} ON customers`);
      await getDb().$executeRawUnsafe(`DROP FUNCTION ${trigger}()`);
    }
    const retried = await create(owner.testKey, { name }, idem);
    expect(retried.res.status).toBe(201);
    expect(retried.res.headers.get("idempotent-replayed")).toBeNull();
    expect(await written(name, idem)).toEqual({ customers: 1, records: 1 });
  });

  it("refusals in their order, one round trip each, write nothing and claim nothing", async () => {
    const limited = await restrictedTestKey(owner, { customers: "write" });
    const denied = await restrictedTestKey(owner, { customers: "read" });
    const deniedAndLimited = await restrictedTestKey(owner, { checkouts: "write" });
    await drainKeyBucket(limited.id);
    await drainKeyBucket(deniedAndLimited.id); // 429 comes before 403
    const idem = randomUUID();

    const unknownKey = await unknownKeyCreate(idem);
    expect(unknownKey.status).toBe(401);
    const rateLimited = await create(limited.secret, { name: "Refused" }, idem);
    expect(rateLimited.res.status).toBe(429);
    expect(rateLimited.res.headers.get("retry-after")).toMatch(/^\d+$/);
    expectLimitHeaders(rateLimited.res);
    expect((await create(deniedAndLimited.secret, { name: "Refused" }, idem)).res.status).toBe(429);
    const forbidden = await create(denied.secret, { name: "Refused" }, idem);
    expect(forbidden.res.status).toBe(403);
    expect(forbidden.res.body.error.details).toMatchObject({ reason: "permission_denied", resource: "customers", required: "write" });
    expectLimitHeaders(forbidden.res);
    const badInput = await create(owner.testKey, { name: "Refused", nickname: "x" }, idem);
    expect(badInput.res.status).toBe(400);
    expect(badInput.res.body.error.code).toBe("VALIDATION_ERROR");
    expectLimitHeaders(badInput.res);
    expect(await written("Refused", idem)).toEqual({ customers: 0, records: 0 });

    const all = [unknownKey, rateLimited, forbidden, badInput];
    expect(all.map((r) => r.trips)).toEqual(all.map(() => 1));
    // The key was never claimed: the same request, allowed now, creates.
    expect((await create(owner.testKey, { name: "Refused" }, idem)).res.status).toBe(201);
  });
});

const redisUrl = redisUrlForTests();

describe.skipIf(!redisUrl)("POST /v1/customers with the Redis buckets", () => {
  it("the key, then the claim, then the write with its stored answer: the same answers", async () => {
    const redis = await startTestServer({ DATABASE_URL: counter.url, REDIS_URL: redisUrl! });
    try {
      for (let i = 0; i < 3; i++) await create(owner.testKey, { name: "warm-up" }, randomUUID(), redis.url);
      const idem = randomUUID();
      const created = await create(owner.testKey, { name: "Via Redis" }, idem, redis.url);
      expect(created.res.status).toBe(201);
      expectLimitHeaders(created.res);
      const replay = await create(owner.testKey, { name: "Via Redis" }, idem, redis.url);
      expect(replay.res.headers.get("idempotent-replayed")).toBe("true");
      expect(textOf(replay)).toBe(textOf(created));
      const noKey = await create(owner.testKey, { name: "Via Redis" }, null, redis.url);
      expect(noKey.res.status).toBe(201);
      expect(await written("Via Redis", idem)).toEqual({ customers: 2, records: 1 });
      expect([created.trips, replay.trips, noKey.trips]).toEqual([3, 2, 2]);
    } finally {
      await redis.stop();
    }
  });
});
