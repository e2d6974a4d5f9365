// One contract (docs/sdk.md "Consumed stores") run against every consumed store: first consume true, repeat false, and 50
// concurrent consumes of one id -> exactly one true. Redis and Postgres are the real servers of this
// machine; the service-backed store runs against a local stand-in of POST /v1/paywall/redemptions and
// against the real service (whose redemptions must name real PaymentIntents of the merchant: paid here
// through POST /v1/paywall/pay).
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  inMemoryConsumedStore,
  postgresConsumedStore,
  redisConsumedStore,
  serviceConsumedStore,
  type ConsumedStore,
} from "agent-payments-sdk";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

const run = randomBytes(4).toString("hex");
const redis = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", { lazyConnect: true, maxRetriesPerRequest: 1 });
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const redisPrefix = `sdk-test:${run}:`;
const pgStore = postgresConsumedStore(pool, { table: `sdk_redemptions_${run}` });

// Stand-in for the service's redemptions endpoint: 201 { redeemed: true } once, then 200 already_redeemed.
const redeemed = new Set<string>();
const seenKeys: (string | undefined)[] = [];
const stub = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    seenKeys.push(req.headers["idempotency-key"] as string | undefined);
    const ok = req.method === "POST" && req.url === "/v1/paywall/redemptions" && req.headers.authorization === "Bearer sk_test_store";
    if (!ok) return void res.writeHead(404).end();
    const { paymentIntentId } = JSON.parse(body) as { paymentIntentId: string };
    const first = !redeemed.has(paymentIntentId);
    redeemed.add(paymentIntentId);
    res.writeHead(first ? 201 : 200, { "content-type": "application/json" });
    res.end(JSON.stringify(first ? { redeemed: true } : { redeemed: false, result: "already_redeemed" }));
  });
});
let stubUrl = "";
let seller: TestMerchant;
let payer: TestMerchant;

beforeAll(async () => {
  [seller, payer] = await Promise.all([createTestMerchant("Store seller"), createTestMerchant("Store payer")]);
  await redis.connect();
  await pgStore.ensureSchema();
  await pgStore.ensureSchema(); // idempotent
  await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
});

afterAll(async () => {
  const keys = await redis.keys(`${redisPrefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  await pool.query(`DROP TABLE IF EXISTS ${pgStore.table}`);
  await pool.end();
  await new Promise((resolve) => stub.close(resolve));
});

const randomId = async () => `pi_${randomBytes(8).toString("hex")}`;

/** A real paid PaymentIntent of `seller`, paid by `payer` with its own key. */
async function paidPaymentIntent(): Promise<string> {
  const body = { merchantId: seller.merchantId, amount: 100, currency: "usd", sku: "contract", paymentMethod: "pm_card_visa" };
  const res = await call("POST", "/v1/paywall/pay", { key: payer.testKey, body });
  if (res.status !== 201) throw new Error(`pay: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.paymentIntentId;
}

const stores: [string, () => ConsumedStore, () => Promise<string>][] = [
  ["in-memory", () => inMemoryConsumedStore(), randomId],
  ["redis (SET NX)", () => redisConsumedStore(redis, { prefix: redisPrefix, ttlSeconds: 600 }), randomId],
  ["postgres (unique insert)", () => pgStore, randomId],
  [
    "service-backed (HTTP stand-in)",
    () => serviceConsumedStore({ baseUrl: stubUrl, apiKey: "sk_test_store", merchantId: "mer_test" }),
    randomId,
  ],
  [
    "service-backed (the real service)",
    () => serviceConsumedStore({ baseUrl: baseUrl(), apiKey: seller.testKey, merchantId: seller.merchantId }),
    paidPaymentIntent,
  ],
];

describe.each(stores)("consumed store contract: %s", (_name, make, newId) => {
  it("the first consume is true, a repeat is false, other ids are independent", async () => {
    const store = make();
    const id = await newId();
    expect(await store.consume(id)).toBe(true);
    expect(await store.consume(id)).toBe(false);
    expect(await store.consume(id)).toBe(false);
    expect(await store.consume(await newId())).toBe(true);
  });

  it("50 concurrent consumes of one id: exactly one true", async () => {
    const store = make();
    const id = await newId();
    const results = await Promise.all(Array.from({ length: 50 }, () => store.consume(id)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("rejects an empty id", async () => {
    await expect(make().consume("")).rejects.toThrow(TypeError);
  });
});

describe("consumed store construction", () => {
  it("two Redis stores (two processes' worth of clients) share the redemption", async () => {
    const other = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
    try {
      const id = `pi_${randomBytes(8).toString("hex")}`;
      const a = redisConsumedStore(redis, { prefix: redisPrefix });
      const b = redisConsumedStore(other, { prefix: redisPrefix });
      const results = await Promise.all([
        ...Array.from({ length: 25 }, () => a.consume(id)),
        ...Array.from({ length: 25 }, () => b.consume(id)),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await redis.ttl(`${redisPrefix}${id}`)).toBeGreaterThan(0);
    } finally {
      await other.quit();
    }
  });

  it("the service store sends a fresh Idempotency-Key per redemption", () => {
    expect(seenKeys.length).toBeGreaterThan(0);
    expect(seenKeys.every((key) => typeof key === "string" && key.length > 0)).toBe(true);
    expect(new Set(seenKeys).size).toBe(seenKeys.length);
  });

  it("bad arguments throw at construction", () => {
    expect(() => postgresConsumedStore(pool, { table: "x; DROP TABLE y" })).toThrow(/table/);
    expect(() => postgresConsumedStore({} as never)).toThrow(/pool/);
    expect(() => redisConsumedStore({} as never)).toThrow(/client/);
    expect(() => redisConsumedStore(redis, { ttlSeconds: 0 })).toThrow(/ttlSeconds/);
    expect(() => serviceConsumedStore({ baseUrl: stubUrl, apiKey: "sk_test_store" } as never)).toThrow(/merchantId/);
    expect(postgresConsumedStore(pool, { table: "public.my_redemptions" }).table).toBe('"public"."my_redemptions"');
  });
});
