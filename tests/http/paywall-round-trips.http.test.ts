// What the paywall's hot path costs in database round trips, counted by a proxy in front of PostgreSQL
// (scripts/lib/pg-round-trips.ts, as npm run bench:paywall counts them) on a server of its own: verify,
// redemption, and the combined verify-and-redeem each cost ONE (the route's statement runs inside the API-key
// statement with its rate-limit token), whatever the answer: redeemed, already_redeemed, not valid, a retry of
// the winner, and the refusals 401, 429 and 403. With the Redis buckets they cost two (the key, then the statement).
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transaction } from "../../lib/db";
import { openPaywallCheckout } from "../../lib/paywall/open-paywall-checkout";
import { countRoundTrips, type RoundTripCounter } from "../../scripts/lib/pg-round-trips";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call } from "../helpers/http";
import { createTestMerchant, drainKeyBucket, restrictedTestKey, type TestMerchant } from "../helpers/merchants";
import { randomLoopback } from "../helpers/from-address";
import { capture } from "../helpers/payments";
import { redisUrlForTests } from "../helpers/redis";
import { startTestServer } from "../helpers/server";

let counter: RoundTripCounter;
let server: ServerProcess;
let seller: TestMerchant;

beforeAll(async () => {
  counter = await countRoundTrips(process.env.DATABASE_URL!);
  [server, seller] = await Promise.all([startTestServer({ DATABASE_URL: counter.url }), createTestMerchant("Round trips")]);
});

afterAll(async () => {
  await server?.stop();
  await counter?.close();
});

const search = { amount: 250, currency: "USD", sku: "tool:search" };
const terms = () => ({ merchantId: seller.merchantId, ...search });

async function paid(t = search, base = server.url): Promise<string> {
  const checkout = await transaction((tx) => openPaywallCheckout(tx, { merchantId: seller.merchantId, livemode: false }, t));
  const res = await capture(seller.testKey, checkout.id, "pm_card_visa", { base });
  expect(res.status).toBe(200);
  return checkout.paymentIntentId as string;
}

type Answer = { status: number; body: any };

const postWith =
  (key: string, base = server.url) =>
  (path: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    call("POST", path, { key, body, headers, base });

/**
 * A POST with an unknown key from a loopback address of its own: a 401 takes a token from the client IP's bucket,
 * and other files take from 127.0.0.1's (tests/helpers/from-address.ts).
 */
function unknownKeyPost(path: string, body: Record<string, unknown>): () => Promise<Answer> {
  const key = `sk_test_${randomBytes(16).toString("hex")}`;
  const localAddress = randomLoopback();
  return () =>
    new Promise((resolve, reject) => {
      const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
      const req = request(`${server.url}${path}`, { method: "POST", localAddress, headers }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: null }));
      });
      req.on("error", reject);
      req.end(JSON.stringify(body));
    });
}

/** Round trips the server made for each labelled request, which must answer its status (and body, when given). */
function measurer() {
  const measured: Record<string, number[]> = {};
  const measure = async (label: string, send: () => Promise<Answer>, status: number, body?: object) => {
    const before = counter.count();
    const res = await send();
    expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(status);
    if (body !== undefined) expect(res.body, label).toMatchObject(body);
    (measured[label] ??= []).push(counter.count() - before);
  };
  return { measured, measure };
}

describe("database round trips per paywall request", () => {
  it("verify, redemption, and the combined call: one each, for every answer and refusal", async () => {
    const post = postWith(seller.testKey);
    // Warm-up: the pool's connections and each named statement's first parse.
    for (let i = 0; i < 3; i++) {
      const pi = await paid();
      await post("/v1/paywall/verify", { ...terms(), paymentIntentId: pi });
      await post("/v1/paywall/redemptions", { paymentIntentId: pi });
      await post("/v1/paywall/redemptions", { ...terms(), paymentIntentId: await paid() });
    }
    const wrongSku = await paid({ ...search, sku: "tool:other" });
    const limited = await restrictedTestKey(seller, { paywall: "write" });
    await drainKeyBucket(limited.id);
    const denied = await restrictedTestKey(seller, { checkouts: "write" });
    const { measured, measure } = measurer();
    for (let i = 0; i < 5; i++) {
      const [a, b] = [await paid(), await paid()];
      const retry = { "Idempotency-Key": `round-trips-${b}` };
      await measure("verify", () => post("/v1/paywall/verify", { ...terms(), paymentIntentId: a }), 200, { valid: true });
      await measure("redemption", () => post("/v1/paywall/redemptions", { paymentIntentId: a }), 201, { redeemed: true });
      await measure("redemption, already redeemed", () => post("/v1/paywall/redemptions", { paymentIntentId: a }), 200, {
        result: "already_redeemed",
      });
      const combined = (pi: string, headers?: Record<string, string>) =>
        post("/v1/paywall/redemptions", { ...terms(), paymentIntentId: pi }, headers);
      await measure("combined, redeemed", () => combined(b, retry), 201, { redeemed: true, paymentIntent: { id: b } });
      await measure("combined, the winner's retry", () => combined(b, retry), 201, { redeemed: true });
      await measure("combined, already redeemed", () => combined(b), 200, { result: "already_redeemed" });
      await measure("combined, reference_mismatch", () => combined(wrongSku), 200, { valid: false, reasonCode: "reference_mismatch" });
      await measure("combined, not_found", () => combined(`pi_unknown${i}`), 200, { valid: false, reasonCode: "not_found" });
      const refused = (key: string) => () => postWith(key)("/v1/paywall/redemptions", { ...terms(), paymentIntentId: b });
      await measure("combined, 401 unknown key", unknownKeyPost("/v1/paywall/redemptions", { ...terms(), paymentIntentId: b }), 401);
      await measure("combined, 429 rate limited", refused(limited.secret), 429);
      await measure("combined, 403 permission_denied", refused(denied.secret), 403, {
        error: { details: { reason: "permission_denied" } },
      });
      await measure("verify, 401 unknown key", unknownKeyPost("/v1/paywall/verify", { ...terms(), paymentIntentId: a }), 401);
    }
    for (const [label, trips] of Object.entries(measured)) expect(trips, label).toEqual([1, 1, 1, 1, 1]);
  });
});

const redisUrl = redisUrlForTests();

describe.skipIf(!redisUrl)("with the Redis buckets", () => {
  it("the key is found first, then the route's statement runs on its own: two round trips, the same answers", async () => {
    const redis = await startTestServer({ DATABASE_URL: counter.url, REDIS_URL: redisUrl! });
    try {
      const post = postWith(seller.testKey, redis.url);
      const combined = (pi: string, headers?: Record<string, string>) =>
        post("/v1/paywall/redemptions", { ...terms(), paymentIntentId: pi }, headers);
      for (let i = 0; i < 3; i++) await combined(await paid(search, redis.url)); // warm-up
      const { measured, measure } = measurer();
      for (let i = 0; i < 3; i++) {
        const pi = await paid(search, redis.url);
        const retry = { "Idempotency-Key": `redis-round-trips-${pi}` };
        await measure("verify", () => post("/v1/paywall/verify", { ...terms(), paymentIntentId: pi }), 200, { valid: true });
        await measure("combined, redeemed", () => combined(pi, retry), 201, { redeemed: true, paymentIntent: { id: pi } });
        await measure("combined, the winner's retry", () => combined(pi, retry), 201, { redeemed: true });
        await measure("combined, already redeemed", () => combined(pi), 200, { result: "already_redeemed" });
        await measure("redemption, already redeemed", () => post("/v1/paywall/redemptions", { paymentIntentId: pi }), 200, {
          result: "already_redeemed",
        });
      }
      for (const [label, trips] of Object.entries(measured)) expect(trips, label).toEqual([2, 2, 2]);
    } finally {
      await redis.stop();
    }
  });
});
