// Hosted paid resources (docs/x402.md) over HTTP: CRUD under /v1/paid_resources and the same objects at
// /v1/x402/resources, merchant- and mode-scoped, validated, paginated, archived by DELETE.
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { createTestMerchant, livePayable, type TestMerchant } from "../helpers/merchants";

let m: TestMerchant;
let other: TestMerchant;
beforeAll(async () => {
  m = await createTestMerchant("Paid resources");
  other = await createTestMerchant("Paid resources other");
});

async function resource(key: string, body: Record<string, unknown> = {}, path = "/v1/paid_resources") {
  const res = await call("POST", path, {
    key,
    body: { name: "Weather", amount: 5, currency: "usd", content: { forecast: "sunny" }, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe("/v1/paid_resources CRUD", () => {
  it("creates a resource (xr_, currency upper-case, active, its public URLs) and reads it at both paths", async () => {
    const created = await resource(m.testKey, { description: "Today's forecast", metadata: { plan: "a" } });
    expect(created).toMatchObject({
      object: "paid_resource",
      name: "Weather",
      description: "Today's forecast",
      amount: 5,
      currency: "USD",
      url: null,
      content: { forecast: "sunny" },
      metadata: { plan: "a" },
      active: true,
      livemode: false,
    });
    expect(created.id).toMatch(/^xr_[0-9A-Za-z]{24}$/);
    expect(created.x402Url).toMatch(new RegExp(`/x402/r/${created.id}$`));
    expect(created.mppUrl).toMatch(new RegExp(`/mpp/r/${created.id}$`));
    for (const path of [`/v1/paid_resources/${created.id}`, `/v1/x402/resources/${created.id}`]) {
      const read = await call("GET", path, { key: m.testKey });
      expect(read.status, path).toBe(200);
      const { forwardingSecret, ...shown } = created; // the secret is in the creating answer only
      expect(forwardingSecret).toMatch(/^whsec_/);
      expect(read.body).toEqual(shown);
    }
    const viaAlias = await resource(m.testKey, { name: "Alias" }, "/v1/x402/resources");
    expect((await call("GET", `/v1/paid_resources/${viaAlias.id}`, { key: m.testKey })).body.name).toBe("Alias");
    const forwarded = await resource(m.testKey, { content: undefined, url: "http://127.0.0.1:9/api" });
    expect(forwarded).toMatchObject({ url: "http://127.0.0.1:9/api", content: null });
    // Live: only once the merchant can be paid on a live network (its payout address there).
    const unpayable = await call("POST", "/v1/paid_resources", {
      key: m.liveKey,
      body: { name: "Live", amount: 5, currency: "usd", content: {} },
    });
    expect(unpayable.status).toBe(409);
    expect(unpayable.body.error.details.reason).toBe("no_payable_network");
    await livePayable(m);
    const live = await resource(m.liveKey);
    expect(live.livemode).toBe(true);
  });

  it("another merchant's resource, and the other mode's, are 404 for read, update and archive", async () => {
    const mine = await resource(m.testKey);
    for (const path of [`/v1/paid_resources/${mine.id}`, `/v1/x402/resources/${mine.id}`]) {
      for (const [method, body] of [
        ["GET", undefined],
        ["POST", { name: "Stolen" }],
        ["DELETE", undefined],
      ] as const) {
        for (const key of [other.testKey, m.liveKey]) {
          const res = await call(method, path, { key, body });
          expect(res.status, `${method} ${path} ${key.slice(0, 8)}`).toBe(404);
          expect(res.body.error.code).toBe("NOT_FOUND");
        }
      }
    }
    expect((await call("GET", `/v1/paid_resources/${mine.id}`, { key: m.testKey })).body).toMatchObject({ name: "Weather", active: true });
    expect((await call("GET", "/v1/paid_resources/xr_doesnotexist", { key: m.testKey })).status).toBe(404);
    expect((await call("GET", "/v1/paid_resources", {})).status).toBe(401);
  });

  it("bad input is 400 VALIDATION_ERROR with field errors, never 500", async () => {
    const base = { name: "x", amount: 5, currency: "usd" };
    const bad = [
      {},
      { ...base },
      { ...base, content: { a: 1 }, url: "https://example.com/" },
      { ...base, content: null },
      { ...base, content: 1, amount: 0 },
      { ...base, content: 1, amount: -1 },
      { ...base, content: 1, amount: 1.5 },
      { ...base, content: 1, amount: "5" },
      { ...base, content: 1, amount: 100_000_000 },
      { ...base, content: 1, currency: "dollars" },
      { ...base, content: 1, name: "" },
      { ...base, content: 1, name: "x".repeat(257) },
      { ...base, content: "x".repeat(70_000) },
      { ...base, url: "ftp://example.com/x" },
      { ...base, url: "not a url" },
      { ...base, url: "https://user:pw@example.com/" },
      { ...base, content: 1, surprise: true },
      { ...base, content: 1, active: "yes" },
    ];
    for (const body of bad) {
      const res = await call("POST", "/v1/paid_resources", { key: m.testKey, body });
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details.fields.length).toBeGreaterThan(0);
    }
    const malformed = await call("POST", "/v1/paid_resources", {
      key: m.testKey,
      rawBody: "{not json",
      headers: { "Content-Type": "application/json" },
    });
    expect(malformed.status).toBe(400);
    const r = await resource(m.testKey);
    for (const body of [
      { amount: 0 },
      { name: "" },
      { currency: "u" },
      { surprise: 1 },
      { active: null },
      { url: "https://example.com/", content: 1 },
    ]) {
      const res = await call("POST", `/v1/paid_resources/${r.id}`, { key: m.testKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call("GET", "/v1/paid_resources?active=maybe", { key: m.testKey })).status).toBe(400);
    expect((await call("GET", "/v1/paid_resources?limit=0", { key: m.testKey })).status).toBe(400);
  });

  it("POST /:id updates only what is given; url replaces content and back; DELETE archives (twice is fine)", async () => {
    const r = await resource(m.testKey, { description: "old" });
    const updated = await call("POST", `/v1/x402/resources/${r.id}`, { key: m.testKey, body: { name: "Weather Pro", amount: 25 } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id: r.id,
      name: "Weather Pro",
      amount: 25,
      currency: "USD",
      description: "old",
      content: { forecast: "sunny" },
      active: true,
    });
    const toUrl = await call("POST", `/v1/paid_resources/${r.id}`, {
      key: m.testKey,
      body: { url: "http://127.0.0.1:9/x", description: null },
    });
    expect(toUrl.body).toMatchObject({ url: "http://127.0.0.1:9/x", content: null, description: null });
    const toContent = await call("POST", `/v1/paid_resources/${r.id}`, { key: m.testKey, body: { content: [1, 2, 3] } });
    expect(toContent.body).toMatchObject({ url: null, content: [1, 2, 3] });
    for (const path of [`/v1/paid_resources/${r.id}`, `/v1/x402/resources/${r.id}`]) {
      const archived = await call("DELETE", path, { key: m.testKey });
      expect(archived.status).toBe(200);
      expect(archived.body.active).toBe(false);
    }
    expect((await call("GET", `/v1/paid_resources/${r.id}`, { key: m.testKey })).body.active).toBe(false);
  });

  it("lists newest first with limit/startingAfter/hasMore and ?active=, scoped to the merchant and mode", async () => {
    const merchant = await createTestMerchant("Paid resources list");
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await resource(merchant.testKey, { name: `R${i}` }));
    await call("DELETE", `/v1/paid_resources/${made[0].id}`, { key: merchant.testKey });
    await livePayable(merchant);
    await resource(merchant.liveKey, { name: "live one" });
    const page1 = await call("GET", "/v1/paid_resources?limit=2", { key: merchant.testKey });
    expect(page1.body).toMatchObject({ object: "list", hasMore: true });
    expect(page1.body.data.map((r: any) => r.name)).toEqual(["R4", "R3"]);
    const page2 = await call("GET", `/v1/x402/resources?limit=10&startingAfter=${page1.body.data[1].id}`, { key: merchant.testKey });
    expect(page2.body.data.map((r: any) => r.name)).toEqual(["R2", "R1", "R0"]);
    expect(page2.body.hasMore).toBe(false);
    // As created, less the secret (in the creating answer only; toEqual takes an undefined field for an absent one).
    const [r2, r1] = [made[2], made[1]].map((created) => ({ ...created, forwardingSecret: undefined }));
    expect(page2.body.data.slice(0, 2)).toEqual([r2, r1]);
    expect((await call("GET", `/v1/paid_resources/${made[2].id}`, { key: merchant.testKey })).body).toEqual(r2);
    const active = await call("GET", "/v1/paid_resources?active=true", { key: merchant.testKey });
    expect(active.body.data.map((r: any) => r.name)).toEqual(["R4", "R3", "R2", "R1"]);
    const archived = await call("GET", "/v1/paid_resources?active=false", { key: merchant.testKey });
    expect(archived.body.data.map((r: any) => r.name)).toEqual(["R0"]);
    const live = await call("GET", "/v1/paid_resources", { key: merchant.liveKey });
    expect(live.body.data.map((r: any) => r.name)).toEqual(["live one"]);
    expect((await call("GET", `/v1/paid_resources?startingAfter=${made[1].id}`, { key: other.testKey })).status).toBe(400);
  });
});
