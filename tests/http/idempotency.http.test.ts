// docs/api-reference.md "Idempotency", on a real resource (POST /v1/customers) and a real server. A failure between
// the claim and the work's commit is shown on POST /v1/products, whose claim and transaction are two statements (a
// customer's claim, insert and stored answer are one: tests/http/customer-create.http.test.ts).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { startTestServer } from "../helpers/server";
import type { ServerProcess } from "../../scripts/lib/server-process";

const post = (key: string, idem: string, body: unknown, extra: { headers?: Record<string, string>; base?: string } = {}) =>
  call("POST", "/v1/customers", { key, body, headers: { "Idempotency-Key": idem, ...extra.headers }, base: extra.base });

async function customerCount(key: string): Promise<number> {
  return (await call("GET", "/v1/customers?limit=100", { key })).body.data.length;
}

const postProduct = (key: string, idem: string, name: string, extra: { headers?: Record<string, string>; base?: string } = {}) =>
  call("POST", "/v1/products", {
    key,
    body: { name, unitAmount: 500, currency: "usd" },
    headers: { "Idempotency-Key": idem, ...extra.headers },
    base: extra.base,
  });

async function productCount(key: string): Promise<number> {
  return (await call("GET", "/v1/products?limit=100", { key })).body.data.length;
}

describe("Idempotency-Key", () => {
  let m: TestMerchant;
  beforeAll(async () => {
    m = await createTestMerchant();
  });

  it("replays the stored status and body with Idempotent-Replayed: true; the work runs once", async () => {
    const key = randomUUID();
    const original = await post(m.testKey, key, { name: "Grace", email: "g@example.com" });
    expect(original.status).toBe(201);
    expect(original.headers.get("idempotent-replayed")).toBeNull();
    // Same request with keys in another order: the same logical request.
    const replay = await post(m.testKey, key, { email: "g@example.com", name: "Grace" });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(JSON.stringify(replay.body)).toBe(JSON.stringify(original.body));
    expect(await customerCount(m.testKey)).toBe(1);
  });

  it("400 VALIDATION_ERROR when the key is reused with a different body or path", async () => {
    const merchant = await createTestMerchant();
    const key = randomUUID();
    expect((await post(merchant.testKey, key, { name: "one" })).status).toBe(201);
    const other = await post(merchant.testKey, key, { name: "two" });
    expect(other.status).toBe(400);
    expect(other.body.error.code).toBe("VALIDATION_ERROR");
    expect(other.body.error.message).toMatch(/different request parameters/);
    expect(await customerCount(merchant.testKey)).toBe(1);
  });

  it("20 concurrent requests with one key create exactly one object; the others get 409 or the replay", async () => {
    const merchant = await createTestMerchant();
    const key = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => post(merchant.testKey, key, { name: "race" })));
    const created = results.filter((r) => r.status === 201 && !r.headers.get("idempotent-replayed"));
    const replayed = results.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === "true");
    const inFlight = results.filter((r) => r.status === 409);
    expect(created).toHaveLength(1);
    expect(replayed.length + inFlight.length).toBe(19);
    for (const r of replayed) expect(r.body.id).toBe(created[0].body.id);
    for (const r of inFlight)
      expect(r.body.error).toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/still being processed/) });
    expect(await customerCount(merchant.testKey)).toBe(1);
  });

  it("scopes keys per credential and per mode", async () => {
    const other = await createTestMerchant();
    const key = randomUUID();
    const asTest = await post(m.testKey, key, { name: "scoped" });
    const asLive = await post(m.liveKey, key, { name: "scoped" });
    const asOtherMerchant = await post(other.testKey, key, { name: "scoped" });
    for (const res of [asTest, asLive, asOtherMerchant]) {
      expect(res.status).toBe(201);
      expect(res.headers.get("idempotent-replayed")).toBeNull();
    }
    expect(new Set([asTest.body.id, asLive.body.id, asOtherMerchant.body.id]).size).toBe(3);
    expect(asLive.body.livemode).toBe(true);
  });

  it("a handler that fails with a 5xx releases the key: nothing is written and the retry runs fresh", async () => {
    const merchant = await createTestMerchant();
    const key = randomUUID();
    const failed = await postProduct(merchant.testKey, key, "flaky", { headers: { "x-test-fault": "after-handler" } });
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe("INVARIANT_VIOLATION");
    expect(JSON.stringify(failed.body)).not.toMatch(/injected fault|stack/);
    expect(await productCount(merchant.testKey)).toBe(0);
    const retry = await postProduct(merchant.testKey, key, "flaky");
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
    expect(await productCount(merchant.testKey)).toBe(1);
  });

  it("rejects malformed keys and ignores the header on reads", async () => {
    const long = await post(m.testKey, "k".repeat(256), { name: "x" });
    expect(long.status).toBe(400);
    expect(long.body.error.details.fields[0].path).toBe("Idempotency-Key");
    const read = await call("GET", "/v1/customers", { key: m.testKey, headers: { "Idempotency-Key": "whatever" } });
    expect(read.status).toBe(200);
  });
});

describe("an in-flight claim left by a killed process", () => {
  let servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it("blocks its key with 409 until its lock expires, then the retry runs once", async () => {
    const lockSeconds = 3;
    const doomed = await startTestServer({ IDEMPOTENCY_LOCK_SECONDS: String(lockSeconds) });
    const survivor = await startTestServer({ IDEMPOTENCY_LOCK_SECONDS: String(lockSeconds) });
    servers = [doomed, survivor];
    const merchant = await createTestMerchant();
    const key = randomUUID();
    const claimedAt = Date.now();
    // The process exits inside the transaction, after the claim was committed.
    await expect(
      postProduct(merchant.testKey, key, "orphan", { base: doomed.url, headers: { "x-test-fault": "after-handler:exit" } }),
    ).rejects.toThrow();
    await new Promise((resolve) => doomed.child.once("exit", resolve));

    const blocked = await postProduct(merchant.testKey, key, "orphan", { base: survivor.url });
    expect(blocked.status).toBe(409);
    expect(await productCount(merchant.testKey)).toBe(0);

    // Retry until the lock expires (it was taken when the doomed process received the request).
    let retried = blocked;
    while (retried.status === 409 && Date.now() - claimedAt < (lockSeconds + 10) * 1000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      retried = await postProduct(merchant.testKey, key, "orphan", { base: survivor.url });
    }
    expect(Date.now() - claimedAt).toBeGreaterThanOrEqual(lockSeconds * 1000 - 100);
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    const replay = await postProduct(merchant.testKey, key, "orphan", { base: survivor.url });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await productCount(merchant.testKey)).toBe(1);
  });
});
