// ACP order webhooks at both versions (docs/acp.md "Order webhooks"), against a real server and database: one ACP
// session paid and partly refunded reaches an endpoint of format "acp-2026-04-17" as the full Order (line-item
// quantities, a digital fulfillment with its event, the refund as an adjustment) and one of format "acp" as
// 2026-01-16's order, each body validated with ajv against ACP's published webhook schema of its version
// (tests/fixtures/acp/schema.agentic_checkout_webhook.*.json) and each verified with Stripe's constructEvent.
// Also: /.well-known/acp.json, public and valid against 2026-04-17's DiscoveryResponse.
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acpCall } from "../helpers/acp";
import { createProduct, delegateCard, expectValid } from "../helpers/acp-edges";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { tick } from "../helpers/payments";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

const stripe = new Stripe("sk_test_unused");
let m: TestMerchant;
let full: Receiver;
let legacy: Receiver;
const secrets: Record<string, string> = {};

beforeAll(async () => {
  m = await createTestMerchant("ACP order webhook shop");
  [full, legacy] = await Promise.all([startReceiver(), startReceiver()]);
  for (const [receiver, format] of [
    [full, "acp-2026-04-17"],
    [legacy, "acp"],
  ] as const) {
    const created = await call("POST", "/v1/webhook-endpoints", { key: m.testKey, body: { url: receiver.url, format } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.format).toBe(format);
    secrets[format] = created.body.secret;
  }
});
afterAll(async () => {
  await Promise.all([full?.close(), legacy?.close()]);
});

async function until(receiver: Receiver, type: string, count = 1) {
  const deadline = Date.now() + 20_000;
  while (receiver.received.filter((d) => d.event.type === type).length < count) {
    if (Date.now() > deadline) throw new Error(`no ${type}: ${JSON.stringify(receiver.received.map((d) => d.event))}`);
    await tick();
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return receiver.received.filter((d) => d.event.type === type);
}

function verified(delivery: Receiver["received"][number], secret: string): any {
  return stripe.webhooks.constructEvent(delivery.rawBody, delivery.headers["merchant-signature"] as string, secret);
}

describe("ACP order webhooks: the full Order at 2026-04-17, 2026-01-16 unchanged", () => {
  it("create -> complete -> refunds: each body valid against its version's published schema", async () => {
    const ebook = await createProduct(m.testKey, 1200, "E-book");
    const course = await createProduct(m.testKey, 500, "Course");
    const session = (
      await acpCall("POST", "/acp/checkout_sessions", {
        key: m.testKey,
        body: {
          items: [
            { id: ebook, quantity: 2 },
            { id: course, quantity: 1 },
          ],
        },
      })
    ).body;
    const token = await delegateCard(m.testKey, m.merchantId, session.id, "4242424242424242", 2900);
    const done = await acpCall("POST", `/acp/checkout_sessions/${session.id}/complete`, {
      key: m.testKey,
      body: { payment_data: { token, provider: "service" } },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const order = done.body.order;

    // order_create, 2026-04-17: the full Order.
    const [created] = await until(full, "order_create");
    const createEvent = verified(created, secrets["acp-2026-04-17"]);
    expectValid("agentic_checkout_webhook", "2026-04-17", "WebhookEvent", createEvent);
    expect(createEvent.data).toMatchObject({
      type: "order",
      id: order.id,
      checkout_session_id: session.id,
      permalink_url: order.permalink_url,
      status: "completed",
      line_items: [
        {
          id: "li_1",
          title: "E-book",
          product_id: ebook,
          quantity: { ordered: 2, current: 2, fulfilled: 2 },
          unit_price: 1200,
          subtotal: 2400,
        },
        {
          id: "li_2",
          title: "Course",
          product_id: course,
          quantity: { ordered: 1, current: 1, fulfilled: 1 },
          unit_price: 500,
          subtotal: 500,
        },
      ],
      fulfillments: [
        {
          type: "digital",
          status: "delivered",
          line_items: [
            { id: "li_1", quantity: 2 },
            { id: "li_2", quantity: 1 },
          ],
          events: [{ type: "delivered", occurred_at: expect.any(String) }],
        },
      ],
      adjustments: [],
      totals: expect.arrayContaining([{ type: "total", display_text: "Total", amount: 2900 }]),
    });

    // The same order at 2026-01-16, unchanged.
    const [legacyCreated] = await until(legacy, "order_create");
    const legacyEvent = verified(legacyCreated, secrets.acp);
    expectValid("agentic_checkout_webhook", "2026-01-16", "WebhookEvent", legacyEvent);
    expect(legacyEvent).toEqual({
      type: "order_create",
      data: { type: "order", checkout_session_id: session.id, permalink_url: order.permalink_url, status: "confirmed", refunds: [] },
    });

    // Two partial refunds: the adjustment carries the amount refunded so far.
    const pi = (await call("GET", `/v1/orders/${order.id}`, { key: m.testKey })).body.paymentIntentId;
    expect((await call("POST", "/v1/refunds", { key: m.testKey, body: { paymentIntentId: pi, amount: 500 } })).status).toBe(201);
    await until(full, "order_update");
    expect((await call("POST", "/v1/refunds", { key: m.testKey, body: { paymentIntentId: pi, amount: 700 } })).status).toBe(201);
    const updates = await until(full, "order_update", 2);
    const amounts = updates.map((d) => {
      const event = verified(d, secrets["acp-2026-04-17"]);
      expectValid("agentic_checkout_webhook", "2026-04-17", "WebhookEvent", event);
      expect(event.data.adjustments).toHaveLength(1);
      expect(event.data.adjustments[0]).toMatchObject({
        type: "refund",
        status: "completed",
        currency: "usd",
        occurred_at: expect.any(String),
      });
      expect(event.data.totals).toContainEqual({
        type: "amount_refunded",
        display_text: "Refunded",
        amount: event.data.adjustments[0].amount,
      });
      expect(event.data.line_items[0].quantity).toEqual({ ordered: 2, current: 2, fulfilled: 2 });
      return event.data.adjustments[0].amount;
    });
    expect(amounts.sort((a, b) => a - b)).toEqual([500, 1200]);

    const legacyUpdates = await until(legacy, "order_update", 2);
    for (const d of legacyUpdates) expectValid("agentic_checkout_webhook", "2026-01-16", "WebhookEvent", verified(d, secrets.acp));
  });
});

describe("/.well-known/acp.json", () => {
  it("public, cacheable, valid against ACP 2026-04-17's DiscoveryResponse", async () => {
    const res = await call("GET", "/.well-known/acp.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expectValid("agentic_checkout", "2026-04-17", "DiscoveryResponse", res.body);
    expect(res.body.protocol).toEqual({
      name: "acp",
      version: "2026-04-17",
      supported_versions: ["2026-01-16", "2026-01-30", "2026-04-17"],
      documentation_url: expect.stringMatching(/^http/),
    });
    expect(res.body.api_base_url).toMatch(/\/acp$/);
    expect(res.body.transports).toEqual(["rest"]);
    expect(res.body.capabilities).toEqual({ services: ["checkout", "orders", "delegate_payment"], intervention_types: ["3ds"] });
    // The base URL it names answers ACP.
    const path = new URL(`${res.body.api_base_url}/checkout_sessions`).pathname;
    expect((await acpCall("POST", path, { key: m.testKey, body: { items: [{ id: "prd_missing", quantity: 1 }] } })).status).toBe(201);
  });
});
