import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture, eventTypesFor, openCheckout, railChargesFor } from "../helpers/payments";

let m: TestMerchant;
beforeAll(async () => {
  m = await createTestMerchant("Concurrency");
});

describe("concurrent captures", () => {
  it("20 concurrent captures of one checkout (different or no idempotency keys) charge once", async () => {
    const checkout = await openCheckout(m.testKey, { amount: 4200 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        capture(m.testKey, checkout.id, i % 2 ? "pm_card_visa" : "pm_card_mastercard", {
          headers: i % 3 ? { "Idempotency-Key": `cc-${checkout.id}-${i}` } : {},
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
    const pi = (await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key: m.testKey })).body;
    expect(pi.amountCaptured).toBe(4200);
    expect(await eventTypesFor(m.testKey, checkout.orderId)).toEqual(["order.paid"]);
    expect((await eventTypesFor(m.testKey, checkout.paymentIntentId)).filter((t) => t === "payment_intent.captured")).toHaveLength(1);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("concurrent captures with the same idempotency key: one runs, the others replay or get 409, one charge", async () => {
    const checkout = await openCheckout(m.testKey, { amount: 900 });
    const headers = { "Idempotency-Key": `same-${checkout.id}` };
    const results = await Promise.all(Array.from({ length: 6 }, () => capture(m.testKey, checkout.id, "pm_card_visa", { headers })));
    for (const r of results) expect([200, 409]).toContain(r.status);
    expect(results.filter((r) => r.status === 200 && r.headers.get("idempotent-replayed") !== "true")).toHaveLength(1);
    const replay = await capture(m.testKey, checkout.id, "pm_card_visa", { headers });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
  });

  it("a capture racing a cancel: exactly one wins", async () => {
    for (let round = 0; round < 3; round++) {
      const checkout = await openCheckout(m.testKey);
      const [cap, can] = await Promise.all([
        capture(m.testKey, checkout.id),
        call("POST", `/v1/checkouts/${checkout.id}/cancel`, { key: m.testKey }),
      ]);
      expect([cap.status, can.status].sort()).toEqual([200, 409]);
      expect(await railChargesFor(checkout.paymentIntentId)).toBe(cap.status === 200 ? 1 : 0);
    }
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });
});
