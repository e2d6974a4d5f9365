// Its own server: the breaker is per process, and this test trips it on purpose.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture, openCheckout, railChargesFor, sleep } from "../helpers/payments";
import { startTestServer } from "../helpers/server";

let server: ServerProcess;
let m: TestMerchant;
beforeAll(async () => {
  [server, m] = await Promise.all([startTestServer({ CIRCUIT_FAILURE_THRESHOLD: "3", CIRCUIT_COOLDOWN_MS: "1000" }), createTestMerchant("Circuit")]);
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
