// ACP order webhooks (docs/acp.md "Order webhooks"): a webhook endpoint registered with format "acp" receives
// order_create when an ACP checkout session is completed and order_update when its order is refunded, as ACP's
// webhook API defines them (validated against lib/acp/schemas.ts), signed in Merchant-Signature and verified
// with Stripe's own constructEvent; sent by the same sender and logged in the same delivery log as the
// service's own events, which a service-format endpoint of the same merchant still receives.
import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebhookEvent } from "../../lib/acp/schemas";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { acpCall } from "../helpers/acp";
import { call } from "../helpers/http";
import { createIsolatedMerchant, isolatedDatabaseUrl, isolatedDb } from "../helpers/isolated-db";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { tick } from "../helpers/payments";
import { startTestServer } from "../helpers/server";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

let m: TestMerchant;
let agentPlatform: Receiver;
let merchantOwn: Receiver;
let acpEndpoint: { id: string; secret: string; format: string };

beforeAll(async () => {
  m = await createTestMerchant("ACP webhooks shop");
  [agentPlatform, merchantOwn] = await Promise.all([startReceiver(), startReceiver()]);
  const created = await call("POST", "/v1/webhook-endpoints", {
    key: m.testKey,
    body: { url: agentPlatform.url, format: "acp", description: "ChatGPT order events" },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  acpEndpoint = created.body;
  expect(acpEndpoint.format).toBe("acp");
  expect((await call("POST", "/v1/webhook-endpoints", { key: m.testKey, body: { url: merchantOwn.url } })).status).toBe(201);
});
afterAll(async () => {
  await Promise.all([agentPlatform?.close(), merchantOwn?.close()]);
});

async function until(receiver: Receiver, predicate: (r: Receiver["received"]) => boolean, base?: string) {
  const deadline = Date.now() + 20_000;
  while (!predicate(receiver.received)) {
    if (Date.now() > deadline) throw new Error(`not received: ${JSON.stringify(receiver.received.map((d) => d.event))}`);
    await tick(base);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

const stripe = new Stripe("sk_test_unused");

describe("ACP order webhooks", () => {
  it("complete -> order_create, refund -> order_update, both verified by Stripe's constructEvent; same log as every webhook", async () => {
    const productId = (await call("POST", "/v1/products", { key: m.testKey, body: { name: "E-book", unitAmount: 1200, currency: "usd" } }))
      .body.id;
    const session = (await acpCall("POST", "/acp/checkout_sessions", { key: m.testKey, body: { items: [{ id: productId, quantity: 1 }] } }))
      .body;
    const token = (
      await acpCall("POST", "/acp/agentic_commerce/delegate_payment", {
        key: m.testKey,
        body: {
          payment_method: {
            type: "card",
            card_number_type: "fpan",
            number: "4242424242424242",
            display_card_funding_type: "credit",
            metadata: {},
          },
          allowance: {
            reason: "one_time",
            max_amount: 1200,
            currency: "usd",
            checkout_session_id: session.id,
            merchant_id: m.merchantId,
            expires_at: new Date(Date.now() + 600_000).toISOString(),
          },
          risk_signals: [{ type: "card_testing", score: 1, action: "authorized" }],
          metadata: {},
        },
      })
    ).body.id;
    const done = await acpCall("POST", `/acp/checkout_sessions/${session.id}/complete`, {
      key: m.testKey,
      idem: randomUUID(),
      body: { payment_data: { token, provider: "service" } },
    });
    expect(done.status).toBe(200);
    const order = done.body.order;

    await until(agentPlatform, (r) => r.some((d) => d.event.type === "order_create"));
    const created = agentPlatform.received.find((d) => d.event.type === "order_create")!;
    const header = created.headers["merchant-signature"] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const verified = stripe.webhooks.constructEvent(created.rawBody, header, acpEndpoint.secret) as unknown as {
      type: string;
      data: unknown;
    };
    expect(WebhookEvent.parse(verified)).toEqual({
      type: "order_create",
      data: { type: "order", checkout_session_id: session.id, permalink_url: order.permalink_url, status: "confirmed", refunds: [] },
    });
    expect(() => stripe.webhooks.constructEvent(created.rawBody.replace("confirmed", "fulfilled"), header, acpEndpoint.secret)).toThrow();
    expect(created.headers["request-id"]).toMatch(/^evt_/);
    expect(created.headers["x-service-signature"]).toBeUndefined();

    const pi = (await call("GET", `/v1/orders/${order.id}`, { key: m.testKey })).body.paymentIntentId;
    expect((await call("POST", "/v1/refunds", { key: m.testKey, body: { paymentIntentId: pi, amount: 500 } })).status).toBe(201);
    await until(agentPlatform, (r) => r.some((d) => d.event.type === "order_update"));
    const update = agentPlatform.received.find((d) => d.event.type === "order_update")!;
    const updated = stripe.webhooks.constructEvent(
      update.rawBody,
      update.headers["merchant-signature"] as string,
      acpEndpoint.secret,
    ) as unknown as { type: string; data: unknown };
    expect(WebhookEvent.parse(updated).data).toMatchObject({
      checkout_session_id: session.id,
      status: "confirmed",
      refunds: [{ type: "original_payment", amount: 500 }],
    });

    // Only ACP order events reach the agent platform; the merchant's own endpoint gets the service's events.
    for (const d of agentPlatform.received) expect(WebhookEvent.safeParse(d.event).success).toBe(true);
    await until(merchantOwn, (r) => r.some((d) => d.event.type === "order.refunded"));
    const own = merchantOwn.received.map((d) => d.event.type);
    expect(own).toEqual(expect.arrayContaining(["order.paid", "payment_intent.captured", "order.refunded"]));
    expect(merchantOwn.received.find((d) => d.event.type === "order.paid")!.event.data.object).toMatchObject({
      id: order.id,
      source: "acp",
    });

    // The same delivery log as every webhook endpoint.
    const log = await call("GET", `/v1/webhook-endpoints/${acpEndpoint.id}/deliveries`, { key: m.testKey });
    expect(log.status).toBe(200);
    expect(
      log.body.data
        .filter((a: any) => a.status === "succeeded")
        .map((a: any) => a.eventType)
        .sort(),
    ).toEqual(["order.paid", "order.refunded"]);
  });

  it("an order not paid through ACP never reaches the ACP endpoint", async () => {
    const before = agentPlatform.received.length;
    const checkout = await call("POST", "/v1/checkouts", { key: m.testKey, body: { amount: 700, currency: "usd" } });
    expect(
      (await call("POST", `/v1/checkouts/${checkout.body.id}/capture`, { key: m.testKey, body: { paymentMethod: "pm_card_visa" } })).status,
    ).toBe(200);
    await until(merchantOwn, (r) => r.some((d) => d.event.type === "order.paid" && d.event.data.object.checkoutId === checkout.body.id));
    await tick();
    expect(agentPlatform.received.length).toBe(before);
  });
});

describe("retries: the same sender and schedule as every webhook", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startTestServer({ DATABASE_URL: isolatedDatabaseUrl(), WEBHOOK_RETRY_SCHEDULE: "1,1", WEBHOOK_TIMEOUT_MS: "1000" });
  });
  afterAll(async () => {
    await server?.stop();
    await isolatedDb().$disconnect();
  });

  it("an agent platform answering 500 gets order_create again on the retry schedule; both attempts are logged", async () => {
    const base = server.url;
    const shop = await createIsolatedMerchant("ACP retry shop");
    const flaky = await startReceiver((_delivery, index) => (index === 0 ? 500 : 200));
    try {
      const endpoint = (await call("POST", "/v1/webhook-endpoints", { key: shop.testKey, base, body: { url: flaky.url, format: "acp" } }))
        .body;
      const productId = (
        await call("POST", "/v1/products", { key: shop.testKey, base, body: { name: "Ticket", unitAmount: 800, currency: "usd" } })
      ).body.id;
      const session = (
        await acpCall("POST", "/acp/checkout_sessions", { key: shop.testKey, base, body: { items: [{ id: productId, quantity: 1 }] } })
      ).body;
      const token = (
        await acpCall("POST", "/acp/agentic_commerce/delegate_payment", {
          key: shop.testKey,
          base,
          body: {
            payment_method: {
              type: "card",
              card_number_type: "fpan",
              number: "5555555555554444",
              display_card_funding_type: "debit",
              metadata: {},
            },
            allowance: {
              reason: "one_time",
              max_amount: 800,
              currency: "usd",
              checkout_session_id: session.id,
              merchant_id: shop.merchantId,
              expires_at: new Date(Date.now() + 600_000).toISOString(),
            },
            risk_signals: [{ type: "card_testing", score: 1, action: "authorized" }],
            metadata: {},
          },
        })
      ).body.id;
      expect(
        (
          await acpCall("POST", `/acp/checkout_sessions/${session.id}/complete`, {
            key: shop.testKey,
            base,
            body: { payment_data: { token, provider: "stripe" } },
          })
        ).status,
      ).toBe(200);

      await until(flaky, (r) => r.length >= 2, base);
      expect(flaky.received.map((d) => d.event.type)).toEqual(["order_create", "order_create"]);
      for (const d of flaky.received)
        expect(stripe.webhooks.constructEvent(d.rawBody, d.headers["merchant-signature"] as string, endpoint.secret)).toBeTruthy();
      expect(flaky.received[0].headers["request-id"]).toBe(flaky.received[1].headers["request-id"]); // one event: the receiver dedupes on it
      const log = (await call("GET", `/v1/webhook-endpoints/${endpoint.id}/deliveries`, { key: shop.testKey, base })).body.data;
      expect(log.map((a: any) => [a.attempt, a.status, a.responseStatus]).sort()).toEqual([
        [1, "failed", 500],
        [2, "succeeded", 200],
      ]);
    } finally {
      await flaky.close();
    }
  });
});
