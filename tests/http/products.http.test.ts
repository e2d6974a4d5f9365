// The product catalog (docs/products.md) over HTTP: CRUD under /v1/products, checkouts opened from
// items: [{ productId, quantity }] priced from the catalog, the paywall's productRef naming a product, and
// the dashboard's products page and routes.
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { dashboardCall, dashboardMerchant, dashboardPage, type DashboardMerchant } from "../helpers/dashboard";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture } from "../helpers/payments";

let m: TestMerchant;
let other: TestMerchant;
beforeAll(async () => {
  m = await createTestMerchant("Catalog");
  other = await createTestMerchant("Catalog other");
});

async function product(key: string, body: Record<string, unknown> = {}) {
  const res = await call("POST", "/v1/products", { key, body: { name: "Widget", unitAmount: 1250, currency: "usd", ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

describe("/v1/products CRUD", () => {
  it("creates a product (prd_, currency upper-case, active by default) and retrieves it", async () => {
    const created = await product(m.testKey, {
      name: "Espresso",
      description: "A short coffee",
      unitAmount: 350,
      currency: "eur",
      metadata: { sku: "esp-1" },
    });
    expect(created).toMatchObject({
      object: "product",
      name: "Espresso",
      description: "A short coffee",
      unitAmount: 350,
      currency: "EUR",
      active: true,
      metadata: { sku: "esp-1" },
      livemode: false,
    });
    expect(created.id).toMatch(/^prd_[0-9A-Za-z]{24}$/);
    const read = await call("GET", `/v1/products/${created.id}`, { key: m.testKey });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);
    expect((await product(m.testKey, { active: false })).active).toBe(false);
    expect((await product(m.testKey, { unitAmount: 0 })).unitAmount).toBe(0);
  });

  it("another merchant's product, and the other mode's, are 404 for read, update and archive", async () => {
    const mine = await product(m.testKey);
    for (const [method, body] of [
      ["GET", undefined],
      ["POST", { name: "Stolen" }],
      ["DELETE", undefined],
    ] as const) {
      for (const key of [other.testKey, m.liveKey]) {
        const res = await call(method, `/v1/products/${mine.id}`, { key, body });
        expect(res.status, `${method} ${key.slice(0, 8)}`).toBe(404);
        expect(res.body.error.code).toBe("NOT_FOUND");
      }
    }
    expect((await call("GET", `/v1/products/${mine.id}`, { key: m.testKey })).body).toMatchObject({ name: "Widget", active: true });
  });

  it("bad input is 400 VALIDATION_ERROR with field errors, never 500", async () => {
    const bad = [
      {},
      { name: "x", currency: "usd" },
      { name: "x", unitAmount: -1, currency: "usd" },
      { name: "x", unitAmount: 10.5, currency: "usd" },
      { name: "x", unitAmount: "100", currency: "usd" },
      { name: "x", unitAmount: 100_000_000, currency: "usd" },
      { name: "x", unitAmount: 100, currency: "dollars" },
      { name: "", unitAmount: 100, currency: "usd" },
      { name: "x".repeat(257), unitAmount: 100, currency: "usd" },
      { name: "x", unitAmount: 100, currency: "usd", price: 3 },
      { name: "x", unitAmount: 100, currency: "usd", active: "yes" },
    ];
    for (const body of bad) {
      const res = await call("POST", "/v1/products", { key: m.testKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details.fields.length).toBeGreaterThan(0);
    }
    const p = await product(m.testKey);
    for (const body of [{ unitAmount: -5 }, { name: "" }, { currency: "u" }, { surprise: 1 }, { active: null }]) {
      const res = await call("POST", `/v1/products/${p.id}`, { key: m.testKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call("GET", "/v1/products?active=maybe", { key: m.testKey })).status).toBe(400);
  });

  it("POST /v1/products/:id updates only what is given; description null clears it", async () => {
    const p = await product(m.testKey, { description: "old" });
    const res = await call("POST", `/v1/products/${p.id}`, { key: m.testKey, body: { name: "Widget Pro", unitAmount: 1999 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: p.id, name: "Widget Pro", unitAmount: 1999, currency: "USD", description: "old", active: true });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(p.updatedAt));
    const cleared = await call("POST", `/v1/products/${p.id}`, { key: m.testKey, body: { description: null, metadata: { tier: "pro" } } });
    expect(cleared.body).toMatchObject({ name: "Widget Pro", description: null, metadata: { tier: "pro" } });
  });

  it("DELETE archives (active: false), twice is the same; an archived product can be restored", async () => {
    const p = await product(m.testKey);
    const archived = await call("DELETE", `/v1/products/${p.id}`, { key: m.testKey });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ id: p.id, active: false });
    expect((await call("DELETE", `/v1/products/${p.id}`, { key: m.testKey })).body.active).toBe(false);
    expect((await call("GET", `/v1/products/${p.id}`, { key: m.testKey })).body.active).toBe(false);
    expect((await call("POST", `/v1/products/${p.id}`, { key: m.testKey, body: { active: true } })).body.active).toBe(true);
  });

  it("lists newest first with the cursor and ?active=; a create with an Idempotency-Key replays", async () => {
    const seller = await createTestMerchant("Catalog lister");
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await product(seller.testKey, { name: `P${i}` }));
    await call("DELETE", `/v1/products/${made[1].id}`, { key: seller.testKey });
    const all = await call("GET", "/v1/products", { key: seller.testKey });
    expect(all.body).toMatchObject({ object: "list", hasMore: false });
    expect(all.body.data.map((p: any) => p.name)).toEqual(["P2", "P1", "P0"]);
    const page1 = await call("GET", "/v1/products?limit=2", { key: seller.testKey });
    expect(page1.body.hasMore).toBe(true);
    const page2 = await call("GET", `/v1/products?limit=2&startingAfter=${page1.body.data[1].id}`, { key: seller.testKey });
    expect(page2.body.data.map((p: any) => p.name)).toEqual(["P0"]);
    expect(page2.body.data).toEqual([made[0]]);
    expect((await call("GET", "/v1/products?active=false", { key: seller.testKey })).body.data.map((p: any) => p.name)).toEqual(["P1"]);
    expect((await call("GET", "/v1/products?active=true", { key: seller.testKey })).body.data.map((p: any) => p.name)).toEqual([
      "P2",
      "P0",
    ]);
    expect((await call("GET", "/v1/products", { key: other.testKey })).body.data.map((p: any) => p.id)).not.toContain(made[0].id);
    expect((await call("GET", "/v1/products", { key: seller.liveKey })).body.data).toEqual([]);

    const headers = { "Idempotency-Key": "product-once" };
    const first = await call("POST", "/v1/products", {
      key: seller.testKey,
      headers,
      body: { name: "Once", unitAmount: 5, currency: "usd" },
    });
    const again = await call("POST", "/v1/products", {
      key: seller.testKey,
      headers,
      body: { name: "Once", unitAmount: 5, currency: "usd" },
    });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.id).toBe(first.body.id);
    expect(await getDb().product.count({ where: { merchantId: seller.merchantId, name: "Once" } })).toBe(1);
  });
});

describe("checkouts from items: [{ productId, quantity }]", () => {
  it("prices from the catalog (currency from the products), copies name, price and productId into checkout and order", async () => {
    const tea = await product(m.testKey, { name: "Tea", unitAmount: 250 });
    const cake = await product(m.testKey, { name: "Cake", unitAmount: 400 });
    const res = await call("POST", "/v1/checkouts", {
      key: m.testKey,
      body: {
        items: [
          { productId: tea.id, quantity: 3 },
          { productId: cake.id, quantity: 1 },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const expected = [
      { name: "Tea", quantity: 3, unitAmount: 250, productId: tea.id },
      { name: "Cake", quantity: 1, unitAmount: 400, productId: cake.id },
    ];
    expect(res.body).toMatchObject({ amount: 1150, currency: "USD", items: expected });
    const order = await call("GET", `/v1/orders/${res.body.orderId}`, { key: m.testKey });
    expect(order.body).toMatchObject({ amount: 1150, items: expected, source: "api" });

    // A later price change or archive never alters what was sold.
    await call("POST", `/v1/products/${tea.id}`, { key: m.testKey, body: { unitAmount: 999, name: "Green tea" } });
    await call("DELETE", `/v1/products/${cake.id}`, { key: m.testKey });
    expect((await capture(m.testKey, res.body.id)).status).toBe(200);
    const paid = await call("GET", `/v1/orders/${res.body.orderId}`, { key: m.testKey });
    expect(paid.body).toMatchObject({ status: "paid", amount: 1150, items: expected });
    expect((await call("GET", `/v1/payment_intents/${res.body.paymentIntentId}`, { key: m.testKey })).body).toMatchObject({
      status: expect.stringMatching(/^(captured|settled)$/),
      amountCaptured: 1150,
    });
  });

  it("mixes catalog and ad-hoc items; a matching amount and currency are accepted, others are 400", async () => {
    const p = await product(m.testKey, { unitAmount: 500 });
    const items = [
      { productId: p.id, quantity: 2 },
      { name: "Gift wrap", quantity: 1, unitAmount: 150 },
    ];
    const ok = await call("POST", "/v1/checkouts", { key: m.testKey, body: { items, currency: "usd", amount: 1150 } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.items[1]).toEqual({ name: "Gift wrap", quantity: 1, unitAmount: 150 });

    const wrongAmount = await call("POST", "/v1/checkouts", { key: m.testKey, body: { items, currency: "usd", amount: 1000 } });
    expect(wrongAmount.status).toBe(400);
    expect(wrongAmount.body.error.details.fields).toEqual([{ path: "amount", message: "amount 1000 differs from the items' total 1150" }]);
    const wrongCurrency = await call("POST", "/v1/checkouts", {
      key: m.testKey,
      body: { items: [{ productId: p.id, quantity: 1 }], currency: "eur" },
    });
    expect(wrongCurrency.status).toBe(400);
    expect(wrongCurrency.body.error.details.fields[0]).toMatchObject({ path: "items.0.productId" });
    expect(wrongCurrency.body.error.details.fields[0].message).toContain("priced in USD");
    const noCurrency = await call("POST", "/v1/checkouts", {
      key: m.testKey,
      body: { items: [{ name: "x", quantity: 1, unitAmount: 100 }] },
    });
    expect(noCurrency.status).toBe(400);
    expect(noCurrency.body.error.details.fields[0].path).toBe("currency");
    const eur = await product(m.testKey, { currency: "eur" });
    const mixed = await call("POST", "/v1/checkouts", {
      key: m.testKey,
      body: {
        items: [
          { productId: p.id, quantity: 1 },
          { productId: eur.id, quantity: 1 },
        ],
      },
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.details.fields[0].path).toBe("items.1.productId");
  });

  it("an archived product is refused (400 naming the item); nothing is opened", async () => {
    const p = await product(m.testKey);
    await call("DELETE", `/v1/products/${p.id}`, { key: m.testKey });
    const before = await getDb().checkout.count({ where: { merchantId: m.merchantId } });
    const res = await call("POST", "/v1/checkouts", { key: m.testKey, body: { items: [{ productId: p.id, quantity: 1 }] } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: "VALIDATION_ERROR",
      details: { fields: [{ path: "items.0.productId", message: `product ${p.id} is archived and cannot be sold` }] },
    });
    expect(await getDb().checkout.count({ where: { merchantId: m.merchantId } })).toBe(before);
  });

  it("another merchant's product, the other mode's, or an unknown one is 404 NOT_FOUND naming it", async () => {
    const theirs = await product(other.testKey);
    const live = await product(m.liveKey);
    for (const productId of [theirs.id, live.id, "prd_000000000000000000000000"]) {
      const res = await call("POST", "/v1/checkouts", { key: m.testKey, body: { items: [{ productId, quantity: 1 }] } });
      expect(res.status, productId).toBe(404);
      expect(res.body.error).toMatchObject({ code: "NOT_FOUND", details: { resource: "product", id: productId } });
    }
    const liveOk = await call("POST", "/v1/checkouts", { key: m.liveKey, body: { items: [{ productId: live.id, quantity: 2 }] } });
    expect(liveOk.status).toBe(201);
    expect(liveOk.body).toMatchObject({ livemode: true, amount: 2500 });
  });

  it("malformed catalog items are 400: bad id, zero quantity, both shapes at once, a total of 0", async () => {
    const free = await product(m.testKey, { unitAmount: 0 });
    for (const items of [
      [{ productId: "widget", quantity: 1 }],
      [{ productId: free.id, quantity: 0 }],
      [{ productId: free.id, quantity: 1, unitAmount: 5 }],
      [{ productId: free.id }],
      [{ productId: free.id, quantity: 2 }],
    ]) {
      const res = await call("POST", "/v1/checkouts", { key: m.testKey, body: { items } });
      expect(res.status, JSON.stringify(items)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
  });
});

describe("the paywall gate's productRef names a product", () => {
  it("POST /v1/paywall/pay with productRef: the payee's checkout keeps it and the order item is the product's name", async () => {
    const p = await product(m.testKey, { name: "Weather lookup", unitAmount: 25 });
    const payer = await createTestMerchant("Catalog payer");
    const paid = await call("POST", "/v1/paywall/pay", {
      key: payer.testKey,
      body: { merchantId: m.merchantId, amount: 25, currency: "usd", sku: "tool.weather", paymentMethod: "pm_card_visa", productRef: p.id },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const pi = (await call("GET", `/v1/payment_intents/${paid.body.paymentIntentId}`, { key: m.testKey })).body;
    expect(pi).toMatchObject({ status: expect.stringMatching(/^(captured|settled)$/), sku: "tool.weather", source: "paywall" });
    const checkout = (await call("GET", `/v1/checkouts/${pi.checkoutId}`, { key: m.testKey })).body;
    expect(checkout).toMatchObject({ productRef: p.id, items: [{ name: "Weather lookup", quantity: 1, unitAmount: 25 }] });
    // A productRef that names no product of the payee is kept for traceability; the sku names the item.
    const unknown = await call("POST", "/v1/paywall/pay", {
      key: payer.testKey,
      body: {
        merchantId: m.merchantId,
        amount: 25,
        currency: "usd",
        sku: "tool.weather",
        paymentMethod: "pm_card_visa",
        productRef: "prd_notinthecatalog",
      },
    });
    expect(unknown.status).toBe(201);
    const pi2 = (await call("GET", `/v1/payment_intents/${unknown.body.paymentIntentId}`, { key: m.testKey })).body;
    expect((await call("GET", `/v1/checkouts/${pi2.checkoutId}`, { key: m.testKey })).body).toMatchObject({
      productRef: "prd_notinthecatalog",
      items: [{ name: "tool.weather" }],
    });
    const bad = await call("POST", "/v1/paywall/pay", {
      key: payer.testKey,
      body: { merchantId: m.merchantId, amount: 25, currency: "usd", sku: "s", paymentMethod: "pm_card_visa", productRef: "weather" },
    });
    expect(bad.status).toBe(400);
  });
});

describe("the dashboard's products page", () => {
  let d: DashboardMerchant;
  beforeAll(async () => {
    d = await dashboardMerchant("Catalog dashboard");
  });

  it("creates, edits, archives and restores through the same domain functions /v1 reads back", async () => {
    const created = await dashboardCall(d.session, "POST", "/api/dashboard/products", {
      body: { name: "Dash widget", unitAmount: 4200, currency: "gbp" },
      csrfToken: d.csrfToken,
    });
    expect(created.status).toBe(201);
    expect((await call("GET", `/v1/products/${created.body.id}`, { key: d.key })).body).toMatchObject({
      name: "Dash widget",
      unitAmount: 4200,
      currency: "GBP",
      active: true,
    });

    const edited = await dashboardCall(d.session, "PATCH", `/api/dashboard/products/${created.body.id}`, {
      body: { name: "Dash widget 2", unitAmount: 4300 },
      csrfToken: d.csrfToken,
    });
    expect(edited.status).toBe(200);
    const page = await dashboardPage(d.session, "/dashboard/products");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Dash widget 2");
    expect(page.html).toContain("£43.00");

    const archived = await dashboardCall(d.session, "DELETE", `/api/dashboard/products/${created.body.id}`, {
      body: {},
      csrfToken: d.csrfToken,
    });
    expect(archived.body.active).toBe(false);
    expect((await dashboardPage(d.session, "/dashboard/products?status=active")).html).not.toContain("Dash widget 2");
    expect((await dashboardPage(d.session, "/dashboard/products?status=archived")).html).toContain("Dash widget 2");
    const restored = await dashboardCall(d.session, "PATCH", `/api/dashboard/products/${created.body.id}`, {
      body: { active: true },
      csrfToken: d.csrfToken,
    });
    expect(restored.body.active).toBe(true);

    const invalid = await dashboardCall(d.session, "POST", "/api/dashboard/products", {
      body: { name: "", unitAmount: -1, currency: "usd" },
      csrfToken: d.csrfToken,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.fields.map((f: any) => f.path).sort()).toEqual(["name", "unitAmount"]);
  });

  it("another merchant's product is 404 on the dashboard routes; no CSRF token is 403; nothing changes", async () => {
    const theirs = await product(other.testKey, { name: "Not yours" });
    const res = await dashboardCall(d.session, "PATCH", `/api/dashboard/products/${theirs.id}`, {
      body: { name: "Mine now" },
      csrfToken: d.csrfToken,
    });
    expect(res.status).toBe(404);
    const archive = await dashboardCall(d.session, "DELETE", `/api/dashboard/products/${theirs.id}`, { body: {}, csrfToken: d.csrfToken });
    expect(archive.status).toBe(404);
    const noCsrf = await dashboardCall(d.session, "POST", "/api/dashboard/products", {
      body: { name: "x", unitAmount: 1, currency: "usd" },
    });
    expect(noCsrf.status).toBe(403);
    expect((await call("GET", `/v1/products/${theirs.id}`, { key: other.testKey })).body).toMatchObject({
      name: "Not yours",
      active: true,
    });
  });
});
