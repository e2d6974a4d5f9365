import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture, createCustomer, eventTypesFor, openCheckout, railChargesFor, sleep, tick } from "../helpers/payments";

let m: TestMerchant;
let other: TestMerchant;
beforeAll(async () => {
  m = await createTestMerchant("Checkouts");
  other = await createTestMerchant("Other");
});

describe("opening checkouts", () => {
  it("opens by amount with its PaymentIntent (requires_payment) and order (pending)", async () => {
    const checkout = await openCheckout(m.testKey, { amount: 1250, currency: "eur", metadata: { ref: "A1" } });
    expect(checkout).toMatchObject({
      object: "checkout",
      status: "open",
      amount: 1250,
      currency: "EUR",
      livemode: false,
      metadata: { ref: "A1" },
      items: [],
    });
    expect(checkout.id).toMatch(/^cs_[0-9A-Za-z]{24}$/);
    expect(checkout.url).toMatch(new RegExp(`/pay/${checkout.id}$`));
    expect(Date.parse(checkout.expiresAt) - Date.parse(checkout.createdAt)).toBeCloseTo(1800_000, -3);
    const pi = await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key: m.testKey });
    expect(pi.body).toMatchObject({
      object: "payment_intent",
      status: "requires_payment",
      amount: 1250,
      amountCaptured: 0,
      amountRefunded: 0,
      currency: "EUR",
      checkoutId: checkout.id,
      orderId: checkout.orderId,
      settledAt: null,
      failureReason: null,
    });
    const order = await call("GET", `/v1/orders/${checkout.orderId}`, { key: m.testKey });
    expect(order.body).toMatchObject({
      object: "order",
      status: "pending",
      amount: 1250,
      amountRefunded: 0,
      paymentIntentId: checkout.paymentIntentId,
    });
  });

  it("opens by items (amount = sum of quantity x unitAmount)", async () => {
    const items = [
      { name: "Tea", quantity: 3, unitAmount: 250 },
      { name: "Cake", quantity: 1, unitAmount: 400 },
    ];
    const checkout = await openCheckout(m.testKey, { amount: undefined, items });
    expect(checkout.amount).toBe(1150);
    expect(checkout.items).toEqual(items);
    const order = await call("GET", `/v1/orders/${checkout.orderId}`, { key: m.testKey });
    expect(order.body.items).toEqual(items);
  });

  it("rejects bad input with 400 VALIDATION_ERROR and field errors, never 500", async () => {
    const bad = [
      {},
      { currency: "usd" },
      { amount: 100, currency: "us" },
      { amount: -1, currency: "usd" },
      { amount: 10.5, currency: "usd" },
      { amount: "100", currency: "usd" },
      { amount: 999, currency: "usd", items: [{ name: "x", quantity: 1, unitAmount: 100 }] },
      { currency: "usd", items: [{ name: "x", quantity: 0, unitAmount: 100 }] },
      { amount: 100, currency: "usd", expiresInSeconds: 0 },
      { amount: 100, currency: "usd", expiresInSeconds: 86_401 },
      { amount: 100, currency: "usd", surprise: true },
      { amount: 100, currency: "usd", successUrl: "javascript:alert(1)" },
    ];
    for (const body of bad) {
      const res = await call("POST", "/v1/checkouts", { key: m.testKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(Array.isArray(res.body.error.details.fields)).toBe(true);
    }
    const malformed = await call("POST", "/v1/checkouts", {
      key: m.testKey,
      rawBody: "{nope",
      headers: { "content-type": "application/json" },
    });
    expect(malformed.status).toBe(400);
  });

  it("opening is idempotent with Idempotency-Key: same body replays the same checkout, another body is 400", async () => {
    const headers = { "Idempotency-Key": `open-${Date.now()}` };
    const a = await call("POST", "/v1/checkouts", { key: m.testKey, headers, body: { amount: 555, currency: "usd" } });
    const b = await call("POST", "/v1/checkouts", { key: m.testKey, headers, body: { currency: "usd", amount: 555 } });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(b.body.id).toBe(a.body.id);
    const c = await call("POST", "/v1/checkouts", { key: m.testKey, headers, body: { amount: 556, currency: "usd" } });
    expect(c.status).toBe(400);
    const list = await call("GET", "/v1/checkouts?limit=100", { key: m.testKey });
    expect(list.body.data.filter((x: any) => x.amount === 555)).toHaveLength(1);
  });

  it("live mode needs expiresInSeconds >= 60", async () => {
    const res = await call("POST", "/v1/checkouts", { key: m.liveKey, body: { amount: 100, currency: "usd", expiresInSeconds: 10 } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields[0].path).toBe("expiresInSeconds");
  });

  it("another merchant's or the other mode's checkout is 404", async () => {
    const checkout = await openCheckout(m.testKey);
    for (const key of [other.testKey, m.liveKey]) {
      expect((await call("GET", `/v1/checkouts/${checkout.id}`, { key })).status).toBe(404);
      expect((await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key })).status).toBe(404);
      expect((await call("GET", `/v1/orders/${checkout.orderId}`, { key })).status).toBe(404);
      expect((await capture(key, checkout.id)).status).toBe(404);
      expect((await call("POST", `/v1/checkouts/${checkout.id}/cancel`, { key })).status).toBe(404);
    }
    expect((await call("GET", `/v1/checkouts/${checkout.id}`, { key: m.testKey })).body.status).toBe("open");
  });
});

describe("capture outcomes (docs/payments.md)", () => {
  for (const method of ["pm_card_visa", "pm_card_mastercard"]) {
    it(`${method} succeeds: order paid, PaymentIntent captured, checkout complete`, async () => {
      const checkout = await openCheckout(m.testKey, { amount: 700 });
      const res = await capture(m.testKey, checkout.id, method);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        object: "order",
        id: checkout.orderId,
        status: "paid",
        amount: 700,
        amountRefunded: 0,
        paymentIntentId: checkout.paymentIntentId,
      });
      const pi = (await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key: m.testKey })).body;
      expect(["captured", "settled"]).toContain(pi.status); // another test file's tick may settle it at once
      expect(pi.amountCaptured).toBe(700);
      expect((await call("GET", `/v1/checkouts/${checkout.id}`, { key: m.testKey })).body.status).toBe("complete");
      expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
    });
  }

  for (const [method, reason] of [
    ["pm_card_chargeDeclined", "generic_decline"],
    ["pm_card_chargeDeclinedInsufficientFunds", "insufficient_funds"],
    ["pm_card_chargeDeclinedExpiredCard", "expired_card"],
  ]) {
    it(`${method} is 402 PAYMENT_DECLINED (${reason}); PaymentIntent failed, order canceled; the 402 replays`, async () => {
      const checkout = await openCheckout(m.testKey);
      const headers = { "Idempotency-Key": `decline-${checkout.id}` };
      const res = await capture(m.testKey, checkout.id, method, { headers });
      expect(res.status).toBe(402);
      expect(res.body.error).toMatchObject({ code: "PAYMENT_DECLINED", details: { reason } });
      const pi = (await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key: m.testKey })).body;
      expect(pi).toMatchObject({ status: "failed", failureReason: reason, amountCaptured: 0 });
      expect((await call("GET", `/v1/orders/${checkout.orderId}`, { key: m.testKey })).body.status).toBe("canceled");
      expect((await call("GET", `/v1/checkouts/${checkout.id}`, { key: m.testKey })).body.status).toBe("failed");
      const replay = await capture(m.testKey, checkout.id, method, { headers });
      expect(replay.status).toBe(402);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body).toEqual(res.body);
      // A failed checkout cannot be captured again.
      expect((await capture(m.testKey, checkout.id, "pm_card_visa")).status).toBe(409);
      expect(await eventTypesFor(m.testKey, checkout.paymentIntentId)).toEqual(["payment_intent.failed"]);
      expect(await eventTypesFor(m.testKey, checkout.orderId)).toEqual(["order.canceled"]);
    });
  }

  it("customer test wallets: fund, pay, insufficient balance declines", async () => {
    const payer = await createCustomer(m.testKey, { amount: 1500, currency: "usd" });
    const first = await openCheckout(m.testKey, { amount: 1000 });
    const paid = await capture(m.testKey, first.id, payer.id);
    expect(paid.status).toBe(200);
    expect(paid.body.customerId).toBe(payer.id);
    const second = await openCheckout(m.testKey, { amount: 600 });
    const declined = await capture(m.testKey, second.id, payer.id);
    expect(declined.status).toBe(402);
    expect(declined.body.error.details.reason).toBe("insufficient_funds");
    const topUp = await call("POST", `/v1/customers/${payer.id}/fund`, { key: m.testKey, body: { amount: 100, currency: "USD" } });
    expect(topUp.body).toMatchObject({ object: "test_wallet", customerId: payer.id, balances: [{ currency: "USD", amount: 600 }] });
  });

  it("funding is test-mode only and validated", async () => {
    const payer = await createCustomer(m.testKey);
    expect((await call("POST", `/v1/customers/${payer.id}/fund`, { key: m.testKey, body: { amount: -5, currency: "usd" } })).status).toBe(
      400,
    );
    expect(
      (await call("POST", `/v1/customers/${payer.id}/fund`, { key: other.testKey, body: { amount: 5, currency: "usd" } })).status,
    ).toBe(404);
    expect((await call("POST", `/v1/customers/${payer.id}/fund`, { key: m.liveKey, body: { amount: 5, currency: "usd" } })).status).toBe(
      403,
    );
  });

  it("an unknown payment method is 400; another merchant's customer is 404", async () => {
    const checkout = await openCheckout(m.testKey);
    expect((await capture(m.testKey, checkout.id, "pm_card_bogus")).status).toBe(400);
    const stranger = await createCustomer(other.testKey, { amount: 5000, currency: "usd" });
    expect((await capture(m.testKey, checkout.id, stranger.id)).status).toBe(404);
    expect((await call("POST", `/v1/checkouts/${checkout.id}/capture`, { key: m.testKey, body: {} })).status).toBe(400);
    expect((await call("GET", `/v1/checkouts/${checkout.id}`, { key: m.testKey })).body.status).toBe("open");
  });

  it("sanctions screening: 403 SANCTIONS_BLOCKED, nothing charged, checkout still open", async () => {
    const checkout = await openCheckout(m.testKey);
    for (const country of ["IR", "kp"]) {
      const res = await capture(m.testKey, checkout.id, "pm_card_visa", { billingCountry: country });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("SANCTIONS_BLOCKED");
    }
    expect(await railChargesFor(checkout.paymentIntentId)).toBe(0);
    expect((await call("GET", `/v1/checkouts/${checkout.id}`, { key: m.testKey })).body.status).toBe("open");
    expect((await capture(m.testKey, checkout.id, "pm_card_visa", { billingCountry: "FR" })).status).toBe(200);
  });

  it("pm_rail_unavailable is 502 UPSTREAM_ERROR; the checkout stays open and a retry can pay", async () => {
    const checkout = await openCheckout(m.testKey);
    const headers = { "Idempotency-Key": `upstream-${checkout.id}` };
    const res = await capture(m.testKey, checkout.id, "pm_rail_unavailable", { headers });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("UPSTREAM_ERROR");
    // A 5xx released the key: the same key runs again (and fails again), it is not replayed.
    const again = await capture(m.testKey, checkout.id, "pm_rail_unavailable", { headers });
    expect(again.status).toBe(502);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect((await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key: m.testKey })).body.status).toBe("requires_payment");
    expect((await capture(m.testKey, checkout.id, "pm_card_visa")).status).toBe(200);
    expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
  });

  it("live mode with no rail configured: 502 UPSTREAM_ERROR saying so, nothing charged", async () => {
    const checkout = await openCheckout(m.liveKey, { expiresInSeconds: 600 });
    expect(checkout.livemode).toBe(true);
    const res = await capture(m.liveKey, checkout.id, "pm_card_visa");
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe("UPSTREAM_ERROR");
    expect(res.body.error.message).toMatch(/no payment rail is configured for live mode/i);
    expect((await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key: m.liveKey })).body.status).toBe("requires_payment");
  });

  it("capturing a paid, canceled or expired checkout is 409 CONFLICT", async () => {
    const paid = await openCheckout(m.testKey);
    expect((await capture(m.testKey, paid.id)).status).toBe(200);
    const again = await capture(m.testKey, paid.id);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("CONFLICT");
    expect(await railChargesFor(paid.paymentIntentId)).toBe(1);

    const canceled = await openCheckout(m.testKey);
    expect((await call("POST", `/v1/checkouts/${canceled.id}/cancel`, { key: m.testKey })).status).toBe(200);
    expect((await capture(m.testKey, canceled.id)).status).toBe(409);

    const expired = await openCheckout(m.testKey, { expiresInSeconds: 1 });
    await sleep(1100);
    expect((await capture(m.testKey, expired.id)).status).toBe(409);
    expect(await railChargesFor(expired.paymentIntentId)).toBe(0);
  });
});

describe("cancel", () => {
  it("cancels an open checkout: checkout, PaymentIntent and order canceled, events once; replays with its key", async () => {
    const checkout = await openCheckout(m.testKey);
    const headers = { "Idempotency-Key": `cancel-${checkout.id}` };
    const res = await call("POST", `/v1/checkouts/${checkout.id}/cancel`, { key: m.testKey, headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: "checkout", id: checkout.id, status: "canceled" });
    const replay = await call("POST", `/v1/checkouts/${checkout.id}/cancel`, { key: m.testKey, headers });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await call("POST", `/v1/checkouts/${checkout.id}/cancel`, { key: m.testKey })).status).toBe(409);
    expect((await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key: m.testKey })).body.status).toBe("canceled");
    expect((await call("GET", `/v1/orders/${checkout.orderId}`, { key: m.testKey })).body.status).toBe("canceled");
    expect(await eventTypesFor(m.testKey, checkout.paymentIntentId)).toEqual(["payment_intent.canceled"]);
    expect(await eventTypesFor(m.testKey, checkout.orderId)).toEqual(["order.canceled"]);
  });

  it("a paid checkout cannot be canceled", async () => {
    const checkout = await openCheckout(m.testKey);
    await capture(m.testKey, checkout.id);
    expect((await call("POST", `/v1/checkouts/${checkout.id}/cancel`, { key: m.testKey })).status).toBe(409);
  });
});

describe("expiry", () => {
  it("expiresInSeconds: 1 is expired 2 s later on read, capture is 409, events fire exactly once", async () => {
    const checkout = await openCheckout(m.testKey, { expiresInSeconds: 1 });
    await sleep(2000);
    expect((await call("GET", `/v1/checkouts/${checkout.id}`, { key: m.testKey })).body.status).toBe("expired");
    expect((await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key: m.testKey })).body.status).toBe("expired");
    expect((await call("GET", `/v1/orders/${checkout.orderId}`, { key: m.testKey })).body.status).toBe("canceled");
    expect((await capture(m.testKey, checkout.id)).status).toBe(409);
    await tick();
    await tick();
    expect(await eventTypesFor(m.testKey, checkout.paymentIntentId)).toEqual(["payment_intent.expired"]);
    expect(await eventTypesFor(m.testKey, checkout.orderId)).toEqual(["order.canceled"]);
  });

  it("the tick expires an overdue checkout nobody reads, once", async () => {
    const merchant = await createTestMerchant("Unread");
    const checkout = await openCheckout(merchant.testKey, { expiresInSeconds: 1 });
    await sleep(1100);
    await Promise.all([tick(), tick()]);
    const events = (await call("GET", "/v1/events", { key: merchant.testKey })).body.data;
    expect(events.map((e: any) => e.type).sort()).toEqual(["order.canceled", "payment_intent.expired"]);
    const expiredEvent = events.find((e: any) => e.type === "payment_intent.expired");
    expect(expiredEvent.data.object).toEqual(
      (await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key: merchant.testKey })).body,
    );
  });

  it("list filters see expiry at once", async () => {
    const merchant = await createTestMerchant("Expiry lists");
    const checkout = await openCheckout(merchant.testKey, { expiresInSeconds: 1 });
    await sleep(1100);
    const open = await call("GET", "/v1/checkouts?status=open", { key: merchant.testKey });
    expect(open.body.data).toEqual([]);
    const expired = await call("GET", "/v1/checkouts?status=expired", { key: merchant.testKey });
    expect(expired.body.data.map((c: any) => c.id)).toEqual([checkout.id]);
  });
});
