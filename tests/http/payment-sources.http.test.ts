// `source` on PaymentIntents and orders (docs/api-reference.md "One ledger under every protocol"): every path that
// creates them names how it came, the /v1 lists filter by it, and the dashboard shows it as a badge.
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { dashboardCall, dashboardMerchant, dashboardPage, type DashboardMerchant } from "../helpers/dashboard";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { CAPTURED_OR_SETTLED, capture, createCustomer, openCheckout } from "../helpers/payments";

let m: DashboardMerchant;
let payer: TestMerchant;
beforeAll(async () => {
  m = await dashboardMerchant("Sources");
  payer = await createTestMerchant("Source payer");
});

async function listAll(path: string, key: string): Promise<any[]> {
  const out: any[] = [];
  let after = "";
  for (;;) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await call("GET", `${path}${sep}limit=100${after ? `&startingAfter=${after}` : ""}`, { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.data);
    if (!res.body.hasMore) return out;
    after = res.body.data.at(-1).id;
  }
}

describe("source on every path that creates PaymentIntents and orders", () => {
  let api: any, payLink: any, paywall: any, meterFunding: any;

  beforeAll(async () => {
    api = await openCheckout(m.key, { amount: 1500 });
    expect((await capture(m.key, api.id)).status).toBe(200);

    const dash = await dashboardCall(m.session, "POST", "/api/dashboard/checkouts", {
      body: { amount: 2500, currency: "usd" },
      csrfToken: m.csrfToken,
    });
    expect(dash.status).toBe(201);
    payLink = dash.body;

    const merchantId = (await getDb().paymentIntent.findUniqueOrThrow({ where: { id: api.paymentIntentId } })).merchantId;
    const paid = await call("POST", "/v1/paywall/pay", {
      key: payer.testKey,
      body: { merchantId, amount: 25, currency: "usd", sku: "tool.weather", paymentMethod: "pm_card_visa" },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    paywall = paid.body;

    const customer = await createCustomer(m.key);
    const meter = await call("POST", "/v1/meters", {
      key: m.key,
      body: {
        customerId: customer.id,
        currency: "usd",
        thresholdMinor: 100,
        prepaid: true,
        budgetMinor: 300,
        paymentMethod: "pm_card_visa",
      },
    });
    expect(meter.status, JSON.stringify(meter.body)).toBe(201);
    const fundings = await call("GET", `/v1/payment_intents?meterId=${meter.body.id}`, { key: m.key });
    meterFunding = fundings.body.data[0];
  });

  it("POST /v1/checkouts -> api (PaymentIntent and order), also once paid", async () => {
    expect((await call("GET", `/v1/payment_intents/${api.paymentIntentId}`, { key: m.key })).body).toMatchObject({
      status: CAPTURED_OR_SETTLED,
      source: "api",
    });
    expect((await call("GET", `/v1/orders/${api.orderId}`, { key: m.key })).body).toMatchObject({ status: "paid", source: "api" });
  });

  it("a dashboard pay link -> pay_page", async () => {
    expect((await call("GET", `/v1/payment_intents/${payLink.paymentIntentId}`, { key: m.key })).body.source).toBe("pay_page");
    expect((await call("GET", `/v1/orders/${payLink.orderId}`, { key: m.key })).body.source).toBe("pay_page");
  });

  it("POST /v1/paywall/pay -> paywall", async () => {
    const pi = (await call("GET", `/v1/payment_intents/${paywall.paymentIntentId}`, { key: m.key })).body;
    expect(pi).toMatchObject({ status: CAPTURED_OR_SETTLED, sku: "tool.weather", source: "paywall" });
    expect((await call("GET", `/v1/orders/${pi.orderId}`, { key: m.key })).body.source).toBe("paywall");
  });

  it("a meter's funding -> meter", async () => {
    expect(meterFunding).toMatchObject({ meterPurpose: "funding", source: "meter" });
  });

  it("events carry the source in data.object", async () => {
    const events = await listAll("/v1/events?type=payment_intent.captured", m.key);
    const ofPaywall = events.find((event) => event.data.object.id === paywall.paymentIntentId);
    expect(ofPaywall.data.object.source).toBe("paywall");
  });

  it("?source= filters /v1/payment_intents and /v1/orders (with pagination), and nothing else leaks in", async () => {
    const all = await listAll("/v1/payment_intents", m.key);
    for (const source of ["api", "pay_page", "paywall", "meter"]) {
      const filtered = await listAll(`/v1/payment_intents?source=${source}`, m.key);
      expect(filtered.length, source).toBeGreaterThan(0);
      expect(filtered.every((pi) => pi.source === source)).toBe(true);
      expect(filtered.map((pi) => pi.id)).toEqual(all.filter((pi) => pi.source === source).map((pi) => pi.id));
    }
    expect(await listAll("/v1/payment_intents?source=x402", m.key)).toEqual([]);
    const orders = await listAll("/v1/orders?source=pay_page", m.key);
    expect(orders.map((o) => o.id)).toEqual([payLink.orderId]);
    const paidApi = await listAll("/v1/orders?source=api&status=paid", m.key);
    expect(paidApi.map((o) => o.id)).toEqual([api.orderId]);

    // cursor pagination within a filter
    await openCheckout(m.key, { amount: 100 });
    await openCheckout(m.key, { amount: 200 });
    const first = await call("GET", "/v1/payment_intents?source=api&limit=1", { key: m.key });
    expect(first.body).toMatchObject({ hasMore: true });
    const second = await call("GET", `/v1/payment_intents?source=api&limit=1&startingAfter=${first.body.data[0].id}`, { key: m.key });
    expect(second.body.data[0].source).toBe("api");
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
  });

  it("an unknown source is 400 VALIDATION_ERROR naming the field", async () => {
    for (const path of ["/v1/payment_intents?source=bogus", "/v1/orders?source=API"]) {
      const res = await call("GET", path, { key: m.key });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details.fields[0].path).toBe("source");
    }
  });

  it("another merchant's list filtered by source shows none of these", async () => {
    const other = await createTestMerchant("Sources other");
    expect(await listAll("/v1/payment_intents?source=paywall", other.testKey)).toEqual([]);
  });

  it("the dashboard's payments and orders pages show the source badge and filter by it", async () => {
    const payments = await dashboardPage(m.session, "/dashboard/payments?source=paywall");
    expect(payments.status).toBe(200);
    const sources = [...payments.html.matchAll(/data-source="([a-z0-9_]+)"/g)].map((match) => match[1]);
    expect(sources).toEqual(["paywall"]);
    expect(payments.html).toContain(paywall.paymentIntentId);
    expect(payments.html).not.toContain(api.paymentIntentId);

    const all = await dashboardPage(m.session, "/dashboard/payments");
    const allSources = new Set([...all.html.matchAll(/data-source="([a-z0-9_]+)"/g)].map((match) => match[1]));
    expect(allSources).toEqual(new Set(["api", "pay_page", "paywall", "meter"]));

    const orders = await dashboardPage(m.session, "/dashboard/orders?source=pay_page");
    expect([...orders.html.matchAll(/data-source="([a-z0-9_]+)"/g)].map((match) => match[1])).toEqual(["pay_page"]);
    expect(orders.html).toContain(payLink.orderId);

    const detail = await dashboardPage(m.session, `/dashboard/payments/${paywall.paymentIntentId}`);
    expect(detail.html).toContain('data-source="paywall"');
    const junk = await dashboardPage(m.session, "/dashboard/orders?source=%3Cscript%3E");
    expect(junk.status).toBe(200); // an unknown source shows everything
  });
});
