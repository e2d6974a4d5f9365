// docs/api-reference.md "Authentication and modes" / docs/api-reference.md "Authentication and modes": 401 for missing or invalid keys, and each key sees only its
// own merchant's objects of its own mode (404 otherwise, never 403, never a leak of existence).
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { hashSecret } from "../../lib/merchants/api-key-secret";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

let a: TestMerchant;
let b: TestMerchant;
let customerOfATest: string;
let customerOfALive: string;

beforeAll(async () => {
  [a, b] = await Promise.all([createTestMerchant("A"), createTestMerchant("B")]);
  customerOfATest = (await call("POST", "/v1/customers", { key: a.testKey, body: { name: "test-mode payer" } })).body.id;
  customerOfALive = (await call("POST", "/v1/customers", { key: a.liveKey, body: { name: "live-mode payer" } })).body.id;
});

describe("authentication", () => {
  it.each([
    ["no Authorization header", {}],
    ["an empty bearer", { Authorization: "Bearer " }],
    ["a basic credential", { Authorization: "Basic dXNlcjpwYXNz" }],
    ["a malformed key", { Authorization: "Bearer sk_test_nope" }],
    ["a well-formed unknown key", { Authorization: `Bearer sk_test_${"A".repeat(32)}` }],
  ])("401 UNAUTHORIZED for %s", async (_label, headers) => {
    const res = await call("GET", `/v1/customers/${customerOfATest}`, { headers });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: "UNAUTHORIZED", message: expect.any(String), details: {} } });
  });

  it("401 for a revoked key, at once", async () => {
    const merchant = await createTestMerchant("revoked");
    expect((await call("GET", "/v1/customers", { key: merchant.testKey })).status).toBe(200);
    await getDb().apiKey.update({ where: { secretHash: hashSecret(merchant.testKey) }, data: { revokedAt: new Date() } });
    expect((await call("GET", "/v1/customers", { key: merchant.testKey })).status).toBe(401);
  });

  it("a test key never sees live objects and a live key never sees test objects", async () => {
    expect((await call("GET", `/v1/customers/${customerOfATest}`, { key: a.testKey })).status).toBe(200);
    expect((await call("GET", `/v1/customers/${customerOfALive}`, { key: a.liveKey })).body.livemode).toBe(true);
    const crossLive = await call("GET", `/v1/customers/${customerOfALive}`, { key: a.testKey });
    const crossTest = await call("GET", `/v1/customers/${customerOfATest}`, { key: a.liveKey });
    expect(crossLive.status).toBe(404);
    expect(crossLive.body.error.code).toBe("NOT_FOUND");
    expect(crossTest.status).toBe(404);
    const testList = await call("GET", "/v1/customers", { key: a.testKey });
    expect(testList.body.data.map((c: { id: string }) => c.id)).toEqual([customerOfATest]);
  });

  it("merchant B never sees merchant A's objects, in lists or by id", async () => {
    const res = await call("GET", `/v1/customers/${customerOfATest}`, { key: b.testKey });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("NOT_FOUND");
    const list = await call("GET", "/v1/customers", { key: b.testKey });
    expect(list.body).toEqual({ object: "list", data: [], hasMore: false });
    const cursor = await call("GET", `/v1/customers?startingAfter=${customerOfATest}`, { key: b.testKey });
    expect(cursor.status).toBe(400);
  });
});
