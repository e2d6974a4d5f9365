import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

let m: TestMerchant;
beforeAll(async () => {
  m = await createTestMerchant();
});

describe("customers", () => {
  it("creates, reads back, and reports field errors", async () => {
    const created = await call("POST", "/v1/customers", {
      key: m.testKey,
      body: { name: "Ada", email: "ada@example.com", metadata: { tier: "gold" } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^cus_[0-9A-Za-z]{24}$/),
      object: "customer",
      name: "Ada",
      email: "ada@example.com",
      metadata: { tier: "gold" },
      livemode: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect((await call("GET", `/v1/customers/${created.body.id}`, { key: m.testKey })).body).toEqual(created.body);
    expect((await call("GET", "/v1/customers", { key: m.testKey })).body.data).toEqual([created.body]);

    const bad = await call("POST", "/v1/customers", { key: m.testKey, body: { email: "not-an-email", name: 5, extra: true } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_ERROR");
    const paths = bad.body.error.details.fields.map((f: { path: string }) => f.path).sort();
    expect(paths).toEqual(["", "email", "name"]);
  });

  it("lists newest first with cursor pagination", async () => {
    const merchant = await createTestMerchant();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await call("POST", "/v1/customers", { key: merchant.testKey, body: { name: `c${i}` } })).body.id);
    const newestFirst = [...ids].reverse();
    const page1 = await call("GET", "/v1/customers?limit=2", { key: merchant.testKey });
    expect(page1.body.data.map((c: { id: string }) => c.id)).toEqual(newestFirst.slice(0, 2));
    expect(page1.body.hasMore).toBe(true);
    const page2 = await call("GET", `/v1/customers?limit=2&startingAfter=${newestFirst[1]}`, { key: merchant.testKey });
    expect(page2.body.data.map((c: { id: string }) => c.id)).toEqual(newestFirst.slice(2, 4));
    const page3 = await call("GET", `/v1/customers?limit=2&startingAfter=${newestFirst[3]}`, { key: merchant.testKey });
    expect(page3.body).toMatchObject({ object: "list", hasMore: false });
    expect(page3.body.data.map((c: { id: string }) => c.id)).toEqual(newestFirst.slice(4));
    expect((await call("GET", "/v1/customers?limit=0", { key: merchant.testKey })).status).toBe(400);
    expect((await call("GET", "/v1/customers?limit=101", { key: merchant.testKey })).status).toBe(400);
  });
});
