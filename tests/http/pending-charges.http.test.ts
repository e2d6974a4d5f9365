// The charge engine's `pending` outcome (lib/payments/apply-charge-outcome.ts): a rail that takes a charge
// and answers later. The test rail's pm_card_pending answers `pending`; its next retrieveCharge of the key
// succeeds. The PaymentIntent is `processing` (payment_intent.processing) until the tick's
// resolveProcessingPayments asks the rail again, for a checkout's capture and a meter's settlement alike.
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { tickUntil } from "../helpers/meters";
import { allEvents, capture, createCustomer, openCheckout, railChargesFor } from "../helpers/payments";

let m: TestMerchant;
beforeEach(async () => {
  m = await createTestMerchant("Pending");
});

const paymentIntent = async (id: string) => (await call("GET", `/v1/payment_intents/${id}`, { key: m.testKey })).body;
const typesAbout = async (id: string) => (await allEvents(m.testKey)).filter((e) => e.data.object.id === id).map((e) => e.type);

describe("a charge the rail decides later", () => {
  it("a checkout's capture leaves the PaymentIntent processing and the order pending; the tick captures it once", async () => {
    const checkout = await openCheckout(m.testKey, { amount: 700 });
    const captured = await capture(m.testKey, checkout.id, "pm_card_pending");
    expect(captured.status).toBe(200);
    expect(captured.body).toMatchObject({ id: checkout.orderId, status: "pending" });
    expect(await paymentIntent(checkout.paymentIntentId)).toMatchObject({
      status: "processing",
      amountCaptured: 0,
      paymentMethod: "pm_card_pending",
    });
    // Still open: the charge may yet succeed (nor does a deadline expire it, seen-now.ts: its charge is unresolved).
    expect((await call("GET", `/v1/checkouts/${checkout.id}`, { key: m.testKey })).body.status).toBe("open");
    expect(await typesAbout(checkout.paymentIntentId)).toEqual(["payment_intent.processing"]);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);

    await tickUntil(async () => (await paymentIntent(checkout.paymentIntentId)).status !== "processing");
    expect(await paymentIntent(checkout.paymentIntentId)).toMatchObject({ amountCaptured: 700, paymentMethod: "pm_card_pending" });
    expect(["captured", "settled"]).toContain((await paymentIntent(checkout.paymentIntentId)).status);
    expect((await call("GET", `/v1/orders/${checkout.orderId}`, { key: m.testKey })).body.status).toBe("paid");
    expect((await call("GET", `/v1/checkouts/${checkout.id}`, { key: m.testKey })).body.status).toBe("complete");
    const types = await typesAbout(checkout.paymentIntentId);
    expect(types.slice(0, 2)).toEqual(["payment_intent.processing", "payment_intent.captured"]);
    expect(await typesAbout(checkout.orderId)).toEqual(["order.paid"]);
    expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
    // A second capture finds it complete: nothing is charged again.
    expect((await capture(m.testKey, checkout.id, "pm_card_visa")).status).toBe(409);
    expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
  });

  it("a meter's settlement charged by the tick goes processing, then captured, with the meter's part applied once", async () => {
    const customerId = (await createCustomer(m.testKey)).id;
    const opened = await call("POST", "/v1/meters", {
      key: m.testKey,
      body: { customerId, currency: "usd", thresholdMinor: 1, prepaid: false, paymentMethod: "pm_card_pending" },
    });
    expect(opened.status).toBe(201);
    const meterId = opened.body.id;
    const usage = await call("POST", `/v1/meters/${meterId}/usage`, {
      key: m.testKey,
      body: { quantity: 3, unitPriceMinor: 1_000_000, idempotencyKey: "u1" },
    });
    expect(usage.status).toBe(201);
    const captured = async () =>
      (await getDb().paymentIntent.findMany({ where: { meterId } })).some((pi) => ["captured", "settled"].includes(pi.status));
    await tickUntil(captured);
    const [pi, ...more] = await getDb().paymentIntent.findMany({ where: { meterId } });
    expect(more).toEqual([]);
    expect(pi).toMatchObject({ amount: 3, amountCaptured: 3 });
    expect((await typesAbout(pi.id)).slice(0, 2)).toEqual(["payment_intent.processing", "payment_intent.captured"]);
    expect((await call("GET", `/v1/meters/${meterId}`, { key: m.testKey })).body).toMatchObject({ status: "open", billedMinor: 3 });
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });
});
