// /v1/meters API semantics: creation and validation, usage records (deduplicated by idempotencyKey),
// prepaid reservations, top-up, close, and scope (another merchant's or mode's meter is a 404).
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { createCustomer } from "../helpers/payments";

const PRICE = 400_000; // 0.4 of a cent in base units

let m: TestMerchant;
let customerId: string;
beforeAll(async () => {
  m = await createTestMerchant();
  customerId = (await createCustomer(m.testKey, { amount: 10_000, currency: "usd" })).id;
});

async function openMeter(body: Record<string, unknown> = {}, key = m.testKey) {
  const res = await call("POST", "/v1/meters", { key, body: { customerId, currency: "usd", thresholdMinor: 100, prepaid: false, ...body } });
  if (res.status !== 201) throw new Error(`open meter: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const usage = (meterId: string, body: Record<string, unknown>, key = m.testKey) => call("POST", `/v1/meters/${meterId}/usage`, { key, body });

describe("meters: create, read, list", () => {
  it("opens a post-paid meter with base units and reads it back", async () => {
    const created = await call("POST", "/v1/meters", { key: m.testKey, body: { customerId, currency: "usd", thresholdMinor: 50, prepaid: false, metadata: { agent: "a1" } } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^mtr_[0-9A-Za-z]{24}$/),
      object: "meter",
      status: "open",
      customerId,
      currency: "USD",
      prepaid: false,
      paymentMethod: customerId,
      thresholdMinor: 50,
      baseUnitsPerMinor: 1_000_000,
      accruedBase: 0,
      reservedBase: 0,
      budgetBase: null,
      availableBase: null,
      usedBase: 0,
      billedMinor: 0,
      settlementCount: 0,
      metadata: { agent: "a1" },
      livemode: false,
      closedAt: null,
      createdAt: expect.any(String),
    });
    expect((await call("GET", `/v1/meters/${created.body.id}`, { key: m.testKey })).body).toEqual(created.body);

    const prepaid = await openMeter({ prepaid: true, budgetMinor: 5, paymentMethod: "pm_card_visa" });
    expect(prepaid).toMatchObject({ prepaid: true, paymentMethod: "pm_card_visa", budgetBase: 5_000_000, availableBase: 5_000_000 });

    const list = await call("GET", `/v1/meters?customerId=${customerId}&limit=2`, { key: m.testKey });
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([prepaid.id, created.body.id]);
    expect((await call("GET", "/v1/meters?status=closed", { key: m.testKey })).body.data).toEqual([]);
  });

  it("refuses bad input with field errors, never a 500", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ customerId, currency: "usd", thresholdMinor: 1 }, "prepaid"],
      [{ customerId, currency: "usd", thresholdMinor: 0, prepaid: false }, "thresholdMinor"],
      [{ customerId, currency: "usd", thresholdMinor: 1.5, prepaid: false }, "thresholdMinor"],
      [{ customerId, currency: "dollars", thresholdMinor: 1, prepaid: false }, "currency"],
      [{ customerId, currency: "usd", thresholdMinor: 1, prepaid: false, budgetMinor: 10 }, "budgetMinor"],
      [{ customerId, currency: "usd", thresholdMinor: 1, prepaid: true, budgetMinor: -1 }, "budgetMinor"],
      [{ customerId, currency: "usd", thresholdMinor: 1, prepaid: "yes" }, "prepaid"],
      [{ customerId, currency: "usd", thresholdMinor: 1, prepaid: false, paymentMethod: "pm_nope" }, "paymentMethod"],
      [{ customerId, currency: "usd", thresholdMinor: 1, prepaid: false, baseUnitsPerMinor: 0 }, "baseUnitsPerMinor"],
      [{ currency: "usd", thresholdMinor: 1, prepaid: false }, "customerId"],
    ];
    for (const [body, path] of cases) {
      const res = await call("POST", "/v1/meters", { key: m.testKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    }
    const unknownCustomer = await call("POST", "/v1/meters", { key: m.testKey, body: { customerId: "cus_doesnotexist000000000000", currency: "usd", thresholdMinor: 1, prepaid: false } });
    expect(unknownCustomer.status).toBe(404);
  });

  it("another merchant's meter, or one of the other mode, is not found", async () => {
    const meter = await openMeter();
    const other = await createTestMerchant();
    for (const key of [other.testKey, m.liveKey]) {
      expect((await call("GET", `/v1/meters/${meter.id}`, { key })).status).toBe(404);
      expect((await usage(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "x" }, key)).status).toBe(404);
    }
    expect((await call("GET", `/v1/meters/${meter.id}`, { key: m.testKey })).body.accruedBase).toBe(0);
    expect((await call("GET", "/v1/meters/mtr_nope", { key: m.testKey })).status).toBe(404);
  });
});

describe("meters: post-paid usage records", () => {
  it("records usage in base units; a retried idempotencyKey counts once; other usage under it is refused", async () => {
    const meter = await openMeter();
    const first = await usage(meter.id, { quantity: 3, unitPriceMinor: PRICE, idempotencyKey: "call-1" });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.stringMatching(/^mu_[0-9A-Za-z]{24}$/),
      object: "meter_usage_record",
      meterId: meter.id,
      quantity: 3,
      unitPriceMinor: PRICE,
      unitPriceBase: PRICE,
      unitPriceDecimal: "0.4",
      amountBase: 1_200_000,
      idempotencyKey: "call-1",
      livemode: false,
      createdAt: expect.any(String),
    });
    const again = await usage(meter.id, { quantity: 3, unitPriceMinor: PRICE, idempotencyKey: "call-1" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const different = await usage(meter.id, { quantity: 4, unitPriceMinor: PRICE, idempotencyKey: "call-1" });
    expect(different.status).toBe(400);
    expect(different.body.error.details.fields[0].path).toBe("idempotencyKey");
    expect((await call("GET", `/v1/meters/${meter.id}`, { key: m.testKey })).body).toMatchObject({ accruedBase: 1_200_000, usedBase: 1_200_000 });
  });

  it("concurrent records with one key count once; distinct keys all count", async () => {
    const meter = await openMeter();
    const same = await Promise.all(Array.from({ length: 10 }, () => usage(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "dup" })));
    expect(same.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(same.map((r) => r.body.id)).size).toBe(1);
    await Promise.all(Array.from({ length: 20 }, (_, i) => usage(meter.id, { quantity: 1, unitPriceMinor: 7, idempotencyKey: `k${i}` })));
    expect((await call("GET", `/v1/meters/${meter.id}`, { key: m.testKey })).body.accruedBase).toBe(PRICE + 20 * 7);
  });

  it("validates usage: whole positive quantity, integer base-unit price, a key", async () => {
    const meter = await openMeter();
    const cases: [Record<string, unknown>, string][] = [
      [{ quantity: 0, unitPriceMinor: 1, idempotencyKey: "a" }, "quantity"],
      [{ quantity: 1.5, unitPriceMinor: 1, idempotencyKey: "a" }, "quantity"],
      [{ quantity: 1, unitPriceMinor: 0.4, idempotencyKey: "a" }, "unitPriceMinor"],
      [{ quantity: 1, unitPriceMinor: -1, idempotencyKey: "a" }, "unitPriceMinor"],
      [{ quantity: 1, unitPriceMinor: 1 }, "idempotencyKey"],
      [{ quantity: 1, unitPriceMinor: 1, idempotencyKey: "" }, "idempotencyKey"],
      [{ quantity: 1_000_000_000, unitPriceMinor: 1e12, idempotencyKey: "a" }, "quantity"],
    ];
    for (const [body, path] of cases) {
      const res = await usage(meter.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    }
  });

  it("a prepaid meter takes reservations, not usage records (409)", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 10 });
    const res = await usage(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "p" });
    expect(res.status).toBe(409);
    expect((await call("GET", `/v1/meters/${meter.id}`, { key: m.testKey })).body.usedBase).toBe(0);
  });
});
