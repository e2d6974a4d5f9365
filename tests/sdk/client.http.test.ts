// ServiceClient against the real service (the shared test server), with a scripted proxy in front of it
// to inject 503s, dropped connections, lost responses, 409s and 429s.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceClient, ServiceError, type Customer } from "agent-payments-sdk";
import { baseUrl } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { startScriptedProxy, type ProxyAction, type ScriptedProxy } from "../helpers/scripted-proxy";

const opened: ScriptedProxy[] = [];
afterAll(async () => {
  await Promise.all(opened.map((p) => p.close()));
});

async function proxied(script: (n: number) => ProxyAction) {
  const proxy = await startScriptedProxy(baseUrl(), (n) => script(n));
  opened.push(proxy);
  return proxy;
}

/** A fresh merchant per test, so "exactly one customer" is about this test alone. */
async function freshClient(url: string, options: { maxRetries?: number } = {}) {
  const merchant = await createTestMerchant("SDK client test");
  const client = new ServiceClient({
    baseUrl: url,
    apiKey: merchant.testKey,
    maxRetries: options.maxRetries ?? 3,
    initialRetryDelayMs: 20,
    timeoutMs: 10_000,
  });
  const direct = new ServiceClient({ baseUrl: baseUrl(), apiKey: merchant.testKey, maxRetries: 0 });
  return { merchant, client, direct };
}

const error503 = { status: 503, body: { error: { code: "CIRCUIT_OPEN", message: "open", details: {} } } } as const;
const keysOf = (proxy: ScriptedProxy) => proxy.seen.map((r) => r.headers["idempotency-key"]);

describe("ServiceClient against the service", () => {
  let merchant: TestMerchant;
  let client: ServiceClient;
  beforeAll(async () => {
    merchant = await createTestMerchant("SDK typed methods");
    client = new ServiceClient({ baseUrl: baseUrl(), apiKey: merchant.testKey });
  });

  it("typed customer methods: create, retrieve, list", async () => {
    const created = await client.customers.create({ name: "Ada", email: "ada@example.com" });
    expect(created).toMatchObject({ object: "customer", name: "Ada", livemode: false });
    expect(created.id).toMatch(/^cus_/);
    expect(await client.customers.retrieve(created.id)).toEqual(created);
    const list = await client.customers.list({ limit: 5 });
    expect(list.object).toBe("list");
    expect(list.data.map((c: Customer) => c.id)).toContain(created.id);
  });

  it("errors become ServiceError with the contract's code and status", async () => {
    const notFound = await client.customers.retrieve("cus_doesnotexist000000000000").catch((e) => e);
    expect(ServiceError.is(notFound)).toBe(true);
    expect([notFound.code, notFound.status]).toEqual(["NOT_FOUND", 404]);
    const badKey = new ServiceClient({ baseUrl: baseUrl(), apiKey: "sk_test_wrong", maxRetries: 0 });
    const unauthorized = await badKey.customers.list().catch((e) => e);
    expect([unauthorized.code, unauthorized.status]).toEqual(["UNAUTHORIZED", 401]);
  });

  it("a caller's idempotency key replays the same object", async () => {
    const key = `order-${Date.now()}`;
    const a = await client.customers.create({ name: "Once" }, { idempotencyKey: key });
    const b = await client.requestWithResponse<Customer>("POST", "/v1/customers", { name: "Once" }, { idempotencyKey: key });
    expect(b.body.id).toBe(a.id);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    const reused = await client.customers.create({ name: "Different" }, { idempotencyKey: key }).catch((e) => e);
    expect([reused.code, reused.status]).toEqual(["VALIDATION_ERROR", 400]);
  });
});

describe("ServiceClient retries reuse one Idempotency-Key", () => {
  it("503 twice, then forwarded: one customer, one key seen three times", async () => {
    const proxy = await proxied((n) => (n < 2 ? error503 : "forward"));
    const { client, direct } = await freshClient(proxy.url);
    const created = await client.customers.create({ name: "Retry 503" });
    expect(proxy.seen).toHaveLength(3);
    expect(new Set(keysOf(proxy)).size).toBe(1);
    expect(keysOf(proxy)[0]).toMatch(/^sdk_/);
    const all = await direct.customers.list();
    expect(all.data.map((c) => c.id)).toEqual([created.id]);
  });

  it("dropped connection, then a response lost AFTER the server did the work: still exactly one customer", async () => {
    const proxy = await proxied((n) => (n === 0 ? "drop" : n === 1 ? "forward-then-drop" : "forward"));
    const { client, direct } = await freshClient(proxy.url);
    const created = await client.customers.create({ name: "Lost response" });
    expect(proxy.seen).toHaveLength(3);
    expect(new Set(keysOf(proxy)).size).toBe(1);
    const all = await direct.customers.list();
    expect(all.data).toHaveLength(1);
    expect(all.data[0].id).toBe(created.id);
  });

  it("409 (in flight) and 502 are retried with the same key", async () => {
    const conflict = { status: 409, body: { error: { code: "CONFLICT", message: "still being processed", details: {} } } };
    const upstream = { status: 502, body: { error: { code: "UPSTREAM_ERROR", message: "rail", details: {} } } };
    const proxy = await proxied((n) => (n === 0 ? conflict : n === 1 ? upstream : "forward"));
    const { client, direct } = await freshClient(proxy.url);
    await client.customers.create({ name: "Conflict" });
    expect(proxy.seen).toHaveLength(3);
    expect(new Set(keysOf(proxy)).size).toBe(1);
    expect((await direct.customers.list()).data).toHaveLength(1);
  });

  it("429 waits for Retry-After before retrying", async () => {
    const limited = {
      status: 429,
      headers: { "Retry-After": "1" },
      body: { error: { code: "RATE_LIMITED", message: "slow down", details: {} } },
    };
    const proxy = await proxied((n) => (n === 0 ? limited : "forward"));
    const { client, direct } = await freshClient(proxy.url);
    await client.customers.create({ name: "Patient" });
    expect(proxy.seen).toHaveLength(2);
    expect(proxy.seen[1].at - proxy.seen[0].at).toBeGreaterThanOrEqual(1000);
    expect(new Set(keysOf(proxy)).size).toBe(1);
    expect((await direct.customers.list()).data).toHaveLength(1);
  });

  it("gives up after maxRetries and throws the last error", async () => {
    const proxy = await proxied(() => error503);
    const { client } = await freshClient(proxy.url, { maxRetries: 2 });
    const err = await client.customers.create({ name: "Never" }).catch((e) => e);
    expect([err.code, err.status]).toEqual(["CIRCUIT_OPEN", 503]);
    expect(proxy.seen).toHaveLength(3);
  });

  it("a 400 from the service is not retried", async () => {
    const proxy = await proxied(() => "forward");
    const { client } = await freshClient(proxy.url);
    const err = await client.customers.create({ email: "not-an-email" }).catch((e) => e);
    expect(ServiceError.is(err)).toBe(true);
    expect([err.code, err.status]).toEqual(["VALIDATION_ERROR", 400]);
    expect(Array.isArray(err.details.fields)).toBe(true);
    expect(proxy.seen).toHaveLength(1);
  });

  it("GET requests carry no Idempotency-Key unless given, and are retried too", async () => {
    const proxy = await proxied((n) => (n === 0 ? error503 : "forward"));
    const { client } = await freshClient(proxy.url);
    await client.customers.list();
    expect(proxy.seen).toHaveLength(2);
    expect(keysOf(proxy)).toEqual([undefined, undefined]);
  });
});
