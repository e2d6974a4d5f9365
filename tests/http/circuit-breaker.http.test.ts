// Its own servers: the breakers are per process, and these tests trip them on purpose.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture, openCheckout, railChargesFor, sleep } from "../helpers/payments";
import { startTestServer } from "../helpers/server";

let server: ServerProcess;
let m: TestMerchant;
beforeAll(async () => {
  [server, m] = await Promise.all([
    startTestServer({ CIRCUIT_FAILURE_THRESHOLD: "3", CIRCUIT_COOLDOWN_MS: "1000" }),
    createTestMerchant("Circuit"),
  ]);
});
afterAll(() => server?.stop());

describe("circuit breaker around the rail", () => {
  it("repeated upstream failures open it (503 CIRCUIT_OPEN, fast fail); half-open after the cool-down; success closes it", async () => {
    const base = server.url;
    const checkout = await openCheckout(m.testKey, {}, base);
    for (let i = 0; i < 3; i++) expect((await capture(m.testKey, checkout.id, "pm_rail_unavailable", { base })).status).toBe(502);

    // Open: even a good card fails fast, and nothing reaches the rail.
    const open = await capture(m.testKey, checkout.id, "pm_card_visa", { base });
    expect(open.status).toBe(503);
    expect(open.body.error.code).toBe("CIRCUIT_OPEN");
    expect(await railChargesFor(checkout.paymentIntentId)).toBe(0);

    // Half-open: one trial; a failure opens it again at once.
    await sleep(1100);
    expect((await capture(m.testKey, checkout.id, "pm_rail_unavailable", { base })).status).toBe(502);
    expect((await capture(m.testKey, checkout.id, "pm_card_visa", { base })).status).toBe(503);

    // Half-open again: a successful trial closes it and the payment goes through.
    await sleep(1100);
    const ok = await capture(m.testKey, checkout.id, "pm_card_visa", { base });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe("paid");
    const next = await openCheckout(m.testKey, {}, base);
    expect((await capture(m.testKey, next.id, "pm_card_visa", { base })).status).toBe(200);
    expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
  });

  it("declines are answers, not failures: they never open the circuit", async () => {
    const base = server.url;
    for (let i = 0; i < 4; i++) {
      const checkout = await openCheckout(m.testKey, {}, base);
      expect((await capture(m.testKey, checkout.id, "pm_card_chargeDeclined", { base })).status).toBe(402);
    }
    const checkout = await openCheckout(m.testKey, {}, base);
    expect((await capture(m.testKey, checkout.id, "pm_card_visa", { base })).status).toBe(200);
  });
});

describe("one circuit per merchant and mode on the test rail (issue 14, item 3)", () => {
  let isolated: ServerProcess;
  beforeAll(async () => {
    // A long cool-down: an open circuit stays open for the whole test.
    isolated = await startTestServer({ CIRCUIT_FAILURE_THRESHOLD: "3", CIRCUIT_COOLDOWN_MS: "600000", LIVE_RAIL: "test" });
  });
  afterAll(() => isolated?.stop());

  it("a merchant's own pm_rail_unavailable opens its own circuit, never another merchant's or its other mode's", async () => {
    const base = isolated.url;
    const [a, b] = await Promise.all([createTestMerchant("Trips its circuit"), createTestMerchant("Bystander")]);
    const tripped = await openCheckout(a.testKey, {}, base);
    for (let i = 0; i < 3; i++) expect((await capture(a.testKey, tripped.id, "pm_rail_unavailable", { base })).status).toBe(502);
    const open = await capture(a.testKey, (await openCheckout(a.testKey, {}, base)).id, "pm_card_visa", { base });
    expect(open.status).toBe(503);
    expect(open.body.error.code).toBe("CIRCUIT_OPEN");

    // Another merchant's captures and refunds go through, again and again.
    for (let i = 0; i < 3; i++) {
      const checkout = await openCheckout(b.testKey, {}, base);
      const paid = await capture(b.testKey, checkout.id, "pm_card_visa", { base });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      const refund = await call("POST", "/v1/refunds", { key: b.testKey, base, body: { orderId: paid.body.id, amount: 100 } });
      expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    }
    // The same merchant's live mode has a circuit of its own.
    const live = await openCheckout(a.liveKey, {}, base);
    expect((await capture(a.liveKey, live.id, "pm_card_visa", { base })).status).toBe(200);
    // And the tripped one is still open.
    expect((await capture(a.testKey, tripped.id, "pm_card_visa", { base })).status).toBe(503);
  });

  it("a payer's failures at another merchant's paywall open the payer's circuit, not the payee's", async () => {
    const base = isolated.url;
    const [seller, payer] = await Promise.all([createTestMerchant("Seller"), createTestMerchant("Failing payer")]);
    const pay = (paymentMethod: string) =>
      call("POST", "/v1/paywall/pay", {
        key: payer.testKey,
        base,
        body: { merchantId: seller.merchantId, amount: 25, currency: "usd", sku: "tool.x", paymentMethod },
      });
    for (let i = 0; i < 3; i++) expect((await pay("pm_rail_unavailable")).status).toBe(502);
    const refused = await pay("pm_card_visa");
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe("CIRCUIT_OPEN");
    const own = await openCheckout(seller.testKey, {}, base);
    expect((await capture(seller.testKey, own.id, "pm_card_visa", { base })).status).toBe(200);
  });
});
