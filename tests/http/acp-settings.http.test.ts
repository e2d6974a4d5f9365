// The merchant's ACP pricing settings API (docs/acp.md "Pricing settings"), against the running server and its
// database: `GET/POST /v1/acp/commerce_settings` (shipping rate, tax rates per country in basis points),
// `POST/GET /v1/acp/discount_codes` and `DELETE /v1/acp/discount_codes/:code`, and `requiresShipping` on
// `/v1/products`. Proves strict validation (400 in the error contract, nothing stored), test and live mode apart,
// another merchant neither seeing nor changing them, a duplicate code decided by the database (409), and a
// restricted key held to its `acp` grant. What the quote makes of these settings is proved in
// tests/http/acp-versions.http.test.ts, which sets them through this API.
import { beforeAll, describe, expect, it } from "vitest";
import { transaction } from "../../lib/db";
import { createScopedApiKey } from "../../lib/merchants/api-keys";
import { normalizePermissions } from "../../lib/merchants/permissions";
import { call, type ApiResponse } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

const SETTINGS = "/v1/acp/commerce_settings";
const CODES = "/v1/acp/discount_codes";

let m: TestMerchant;
let other: TestMerchant;

beforeAll(async () => {
  m = await createTestMerchant("ACP settings shop");
  other = await createTestMerchant("ACP settings, another shop");
});

function expectInvalid(res: ApiResponse, field?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe("VALIDATION_ERROR");
  if (field) expect(JSON.stringify(res.body.error.details.fields)).toContain(field);
}

const codesOf = async (key: string) => ((await call("GET", CODES, { key })).body.data as { code: string }[]).map((c) => c.code);

describe("ACP commerce settings", () => {
  it("unset: no shipping, no tax; POST sets what it is given and keeps the rest", async () => {
    const unset = await call("GET", SETTINGS, { key: m.testKey });
    expect(unset.status).toBe(200);
    expect(unset.body).toEqual({ object: "acp_commerce_settings", shippingRate: null, taxRates: {}, livemode: false, updatedAt: null });

    const set = await call("POST", SETTINGS, { key: m.testKey, body: { shippingRate: 500, taxRates: { US: 825, DE: 1900 } } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ shippingRate: 500, taxRates: { US: 825, DE: 1900 }, livemode: false });
    expect(Date.parse(set.body.updatedAt)).not.toBeNaN();

    // Only the shipping rate given: the tax rates stay; null stops offering shipping.
    const noShipping = await call("POST", SETTINGS, { key: m.testKey, body: { shippingRate: null } });
    expect(noShipping.body).toMatchObject({ shippingRate: null, taxRates: { US: 825, DE: 1900 } });
    // The tax map is replaced whole: a country left out has no rate any more.
    const replaced = await call("POST", SETTINGS, { key: m.testKey, body: { shippingRate: 0, taxRates: { GB: 2000, US: 0 } } });
    expect(replaced.body).toMatchObject({ shippingRate: 0, taxRates: { GB: 2000, US: 0 } });
    expect((await call("GET", SETTINGS, { key: m.testKey })).body).toEqual(replaced.body);
  });

  it("refuses bad values with 400, storing nothing", async () => {
    await call("POST", SETTINGS, { key: other.testKey, body: { shippingRate: 300, taxRates: { FR: 2000 } } });
    const bad: [Record<string, unknown>, string][] = [
      [{ taxRates: { us: 825 } }, "taxRates"], // lower case
      [{ taxRates: { USA: 825 } }, "taxRates"], // alpha-3
      [{ taxRates: { XK: 825 } }, "taxRates"], // user-assigned, not ISO 3166-1
      [{ taxRates: { EU: 825 } }, "taxRates"], // reserved, not a country
      [{ taxRates: { US: 10_001 } }, "taxRates"],
      [{ taxRates: { US: -1 } }, "taxRates"],
      [{ taxRates: { US: 8.25 } }, "taxRates"],
      [{ taxRates: { US: "825" } }, "taxRates"],
      [{ taxRates: [825] }, "taxRates"],
      [{ shippingRate: -1 }, "shippingRate"],
      [{ shippingRate: 4.99 }, "shippingRate"],
      [{ shippingRate: "500" }, "shippingRate"],
      [{ shippingRate: 100_000_000 }, "shippingRate"],
      [{ currency: "usd" }, ""],
    ];
    for (const [body, field] of bad) expectInvalid(await call("POST", SETTINGS, { key: other.testKey, body }), field);
    expectInvalid(await call("POST", SETTINGS, { key: other.testKey, rawBody: "{not json" }));
    expect((await call("GET", SETTINGS, { key: other.testKey })).body).toMatchObject({ shippingRate: 300, taxRates: { FR: 2000 } });
  });

  it("test and live mode are apart; another merchant neither sees nor changes them", async () => {
    const merchant = await createTestMerchant("ACP settings, modes");
    await call("POST", SETTINGS, { key: merchant.testKey, body: { shippingRate: 700, taxRates: { CA: 500 } } });
    const live = await call("GET", SETTINGS, { key: merchant.liveKey });
    expect(live.body).toMatchObject({ shippingRate: null, taxRates: {}, livemode: true });
    const liveSet = await call("POST", SETTINGS, { key: merchant.liveKey, body: { taxRates: { CA: 1300 } } });
    expect(liveSet.body).toMatchObject({ shippingRate: null, taxRates: { CA: 1300 }, livemode: true });
    expect((await call("GET", SETTINGS, { key: merchant.testKey })).body).toMatchObject({ shippingRate: 700, taxRates: { CA: 500 } });

    const stranger = await createTestMerchant("ACP settings, stranger");
    expect((await call("GET", SETTINGS, { key: stranger.testKey })).body).toMatchObject({ shippingRate: null, taxRates: {} });
    await call("POST", SETTINGS, { key: stranger.testKey, body: { shippingRate: 1 } });
    expect((await call("GET", SETTINGS, { key: merchant.testKey })).body.shippingRate).toBe(700);
  });
});

describe("ACP discount codes", () => {
  it("create (percent or amount), list, delete; deleted is gone (404 the second time)", async () => {
    const percent = await call("POST", CODES, { key: m.testKey, body: { code: "SAVE10", name: "10% off", percentOff: 10 } });
    expect(percent.status, JSON.stringify(percent.body)).toBe(201);
    expect(percent.body).toMatchObject({
      object: "acp_discount_code",
      code: "SAVE10",
      name: "10% off",
      percentOff: 10,
      amountOff: null,
      currency: null,
      livemode: false,
    });
    const amount = await call("POST", CODES, {
      key: m.testKey,
      body: { code: "FIVE_off-2", name: "$5 off", amountOff: 500, currency: "usd" },
    });
    expect(amount.status, JSON.stringify(amount.body)).toBe(201);
    expect(amount.body).toMatchObject({ code: "FIVE_off-2", percentOff: null, amountOff: 500, currency: "USD" });

    const list = await call("GET", CODES, { key: m.testKey });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ object: "list", hasMore: false });
    expect(list.body.data).toEqual([amount.body, percent.body]);

    const deleted = await call("DELETE", `${CODES}/SAVE10`, { key: m.testKey });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ object: "acp_discount_code", code: "SAVE10", deleted: true });
    expect(await codesOf(m.testKey)).toEqual(["FIVE_off-2"]);
    const again = await call("DELETE", `${CODES}/SAVE10`, { key: m.testKey });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe("NOT_FOUND");
    // Deleted, the code may be made again.
    expect((await call("POST", CODES, { key: m.testKey, body: { code: "SAVE10", name: "back", percentOff: 15 } })).status).toBe(201);
  });

  it("refuses bad codes with 400, storing nothing", async () => {
    const merchant = await createTestMerchant("ACP codes, validation");
    const bad: [Record<string, unknown>, string][] = [
      [{ code: "BOTH", name: "x", percentOff: 10, amountOff: 100, currency: "usd" }, "percentOff"],
      [{ code: "NEITHER", name: "x" }, "percentOff"],
      [{ code: "NOCUR", name: "x", amountOff: 100 }, "currency"],
      [{ code: "PCTCUR", name: "x", percentOff: 10, currency: "usd" }, "currency"],
      [{ code: "ZERO", name: "x", percentOff: 0 }, "percentOff"],
      [{ code: "OVER", name: "x", percentOff: 101 }, "percentOff"],
      [{ code: "FRAC", name: "x", percentOff: 12.5 }, "percentOff"],
      [{ code: "NOAMT", name: "x", amountOff: 0, currency: "usd" }, "amountOff"],
      [{ code: "NEG", name: "x", amountOff: -5, currency: "usd" }, "amountOff"],
      [{ code: "CENTS", name: "x", amountOff: 1.5, currency: "usd" }, "amountOff"],
      [{ code: "CUR", name: "x", amountOff: 100, currency: "dollars" }, "currency"],
      [{ code: "HAS SPACE", name: "x", percentOff: 10 }, "code"],
      [{ code: "", name: "x", percentOff: 10 }, "code"],
      [{ code: "A".repeat(65), name: "x", percentOff: 10 }, "code"],
      [{ code: "NONAME", name: " ", percentOff: 10 }, "name"],
      [{ code: "EXTRA", name: "x", percentOff: 10, active: false }, ""],
    ];
    for (const [body, field] of bad) expectInvalid(await call("POST", CODES, { key: merchant.testKey, body }), field);
    expect(await codesOf(merchant.testKey)).toEqual([]);
  });

  it("a duplicate code is 409, decided by the database even when two requests race", async () => {
    const merchant = await createTestMerchant("ACP codes, duplicates");
    const body = { code: "RACE", name: "race", percentOff: 5 };
    const raced = await Promise.all([1, 2, 3].map(() => call("POST", CODES, { key: merchant.testKey, body })));
    expect(raced.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const dup = raced.find((r) => r.status === 409)!;
    expect(dup.body.error.code).toBe("CONFLICT");
    expect(await codesOf(merchant.testKey)).toEqual(["RACE"]);
  });

  it("test and live mode are apart; another merchant neither sees nor deletes them", async () => {
    const merchant = await createTestMerchant("ACP codes, modes");
    await call("POST", CODES, { key: merchant.testKey, body: { code: "TESTONLY", name: "t", percentOff: 20 } });
    expect(await codesOf(merchant.liveKey)).toEqual([]);
    expect((await call("DELETE", `${CODES}/TESTONLY`, { key: merchant.liveKey })).status).toBe(404);
    // The same code in live mode is another code.
    const live = await call("POST", CODES, {
      key: merchant.liveKey,
      body: { code: "TESTONLY", name: "l", amountOff: 100, currency: "eur" },
    });
    expect(live.status).toBe(201);
    expect(live.body.livemode).toBe(true);

    const stranger = await createTestMerchant("ACP codes, stranger");
    expect(await codesOf(stranger.testKey)).toEqual([]);
    expect((await call("DELETE", `${CODES}/TESTONLY`, { key: stranger.testKey })).status).toBe(404);
    expect(await codesOf(merchant.testKey)).toEqual(["TESTONLY"]);
    expect(await codesOf(merchant.liveKey)).toEqual(["TESTONLY"]);
  });
});

describe("the acp grant of a restricted key", () => {
  it("acp read reads the settings and codes but cannot change them; no acp grant cannot read them", async () => {
    const merchant = await createTestMerchant("ACP settings, restricted keys");
    const scope = { merchantId: merchant.merchantId, livemode: false };
    const keyWith = (permissions: Record<string, string>) =>
      transaction((tx) => createScopedApiKey(tx, scope, { permissions: normalizePermissions(permissions) }, { via: "cli" }));
    const reader = (await keyWith({ acp: "read" })).secret;
    const outsider = (await keyWith({ products: "write" })).secret;
    const denied = (res: ApiResponse, required: string) => {
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error.details).toEqual({ reason: "permission_denied", resource: "acp", required });
    };

    expect((await call("GET", SETTINGS, { key: reader })).status).toBe(200);
    expect((await call("GET", CODES, { key: reader })).status).toBe(200);
    denied(await call("POST", SETTINGS, { key: reader, body: { shippingRate: 1 } }), "write");
    denied(await call("POST", CODES, { key: reader, body: { code: "NOPE", name: "x", percentOff: 1 } }), "write");
    denied(await call("DELETE", `${CODES}/NOPE`, { key: reader }), "write");
    denied(await call("GET", SETTINGS, { key: outsider }), "read");
    denied(await call("GET", CODES, { key: outsider }), "read");
    expect((await call("GET", SETTINGS, { key: merchant.testKey })).body.shippingRate).toBeNull();
  });
});

describe("requiresShipping on /v1/products", () => {
  it("false unless set; set on create and update; anything but a boolean is 400", async () => {
    const digital = await call("POST", "/v1/products", { key: m.testKey, body: { name: "E-book", unitAmount: 900, currency: "usd" } });
    expect(digital.body.requiresShipping).toBe(false);
    const mug = await call("POST", "/v1/products", {
      key: m.testKey,
      body: { name: "Mug", unitAmount: 1500, currency: "usd", requiresShipping: true },
    });
    expect(mug.status, JSON.stringify(mug.body)).toBe(201);
    expect(mug.body.requiresShipping).toBe(true);
    const updated = await call("POST", `/v1/products/${digital.body.id}`, { key: m.testKey, body: { requiresShipping: true } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ requiresShipping: true, name: "E-book" });
    expect((await call("GET", `/v1/products/${digital.body.id}`, { key: m.testKey })).body.requiresShipping).toBe(true);
    // Another update leaves it as it is.
    expect((await call("POST", `/v1/products/${digital.body.id}`, { key: m.testKey, body: { name: "Book" } })).body.requiresShipping).toBe(
      true,
    );

    expectInvalid(
      await call("POST", "/v1/products", { key: m.testKey, body: { name: "X", unitAmount: 1, currency: "usd", requiresShipping: "yes" } }),
      "requiresShipping",
    );
    expectInvalid(
      await call("POST", `/v1/products/${mug.body.id}`, { key: m.testKey, body: { requiresShipping: null } }),
      "requiresShipping",
    );
    expect((await call("GET", `/v1/products/${mug.body.id}`, { key: m.testKey })).body.requiresShipping).toBe(true);
  });
});
