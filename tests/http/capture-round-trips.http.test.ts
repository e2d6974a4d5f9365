// An API capture's database round trips (docs/BENCHMARKS.md, "The API capture planned from the rows its lock holds"),
// counted by a proxy in front of PostgreSQL (scripts/lib/pg-round-trips.ts):
// - the checkout's lock also locks and returns its PaymentIntent and order (lockCheckoutForCharge, migration
//   20261212100000_checkout_lock_for_charge_order), so the capture's transitions (PaymentIntent, order, checkout) are
//   planned from those rows and run, each checked, with the last statement (predictedTransition, lib/sql-model.ts):
//   the answer and the events say of the order and the PaymentIntent what the database holds;
// - a decline, and a capture that must first look into a charge a crashed request left, still read their rows back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countRoundTrips, type RoundTripCounter } from "../../scripts/lib/pg-round-trips";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { getDb } from "../../lib/db";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { railChargesFor } from "../helpers/payments";
import { startTestServer } from "../helpers/server";

let counter: RoundTripCounter;
let server: ServerProcess;
let merchant: TestMerchant;

beforeAll(async () => {
  counter = await countRoundTrips(process.env.DATABASE_URL!);
  // No wake-on-commit: the webhook sender's statements would land among the capture's (the cron tick sends instead).
  [server, merchant] = await Promise.all([
    startTestServer({ DATABASE_URL: counter.url, WEBHOOK_WAKE_ON_COMMIT: "0" }),
    createTestMerchant("capture round trips"),
  ]);
});

afterAll(async () => {
  await server?.stop();
  await counter?.close();
});

async function openCheckout(): Promise<{ id: string; orderId: string; paymentIntentId: string }> {
  const opened = await call("POST", "/v1/checkouts", {
    key: merchant.testKey,
    base: server.url,
    body: { amount: 1250, currency: "usd", description: "counted", metadata: { zeta: "1", a: "2" } },
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(201);
  return opened.body;
}

/** The round trips of one capture, counted once they stop. */
async function capture(id: string, paymentMethod = "pm_card_visa") {
  const before = counter.count();
  const res = await call("POST", `/v1/checkouts/${id}/capture`, { key: merchant.testKey, base: server.url, body: { paymentMethod } });
  let last = -1;
  while (counter.count() !== last) {
    last = counter.count();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { ...res, trips: last - before };
}

describe("an API capture's round trips", () => {
  it("the key with the idempotency claim, BEGIN with the lock, the charge, the capture with the answer and COMMIT: 4", async () => {
    await capture((await openCheckout()).id); // warm: the first use of each statement parses it
    const paid = await capture((await openCheckout()).id);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.status).toBe("paid");
    expect(paid.trips).toBe(4);
  });

  it("planned from the locked rows: the answer and the events' PaymentIntent and order are the database's", async () => {
    const checkout = await openCheckout();
    const paid = await capture(checkout.id);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const order = await call("GET", `/v1/orders/${checkout.orderId}`, { key: merchant.testKey });
    expect(paid.body).toEqual(order.body);
    expect(order.body).toMatchObject({ status: "paid", amount: 1250 });
    const events = await getDb().event.findMany({ where: { objectId: { in: [checkout.orderId, checkout.paymentIntentId] } } });
    const data = (type: string) => (events.find((e) => e.type === type)?.data as { object: Record<string, unknown> }).object;
    expect(data("order.paid")).toEqual(order.body);
    const pi = await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key: merchant.testKey });
    // Another test file's tick may have settled it since (test mode settles at once): only what settling moves may differ.
    const { status, settledAt, ...captured } = data("payment_intent.captured");
    expect([status, settledAt]).toEqual(["captured", null]);
    expect(pi.body).toEqual({ ...captured, status: pi.body.status, settledAt: pi.body.settledAt });
    expect((await getDb().checkout.findUniqueOrThrow({ where: { id: checkout.id } })).status).toBe("complete");
    expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
  });

  it("a decline runs its transitions as statements of their own (the PaymentIntent's, then the order's with the checkout's)", async () => {
    const checkout = await openCheckout();
    await capture((await openCheckout()).id, "pm_card_chargeDeclined"); // warm the decline's statements
    const declined = await capture(checkout.id, "pm_card_chargeDeclined");
    expect(declined.status).toBe(402);
    expect(declined.trips).toBe(6);
    const pi = await getDb().paymentIntent.findUniqueOrThrow({ where: { id: checkout.paymentIntentId } });
    expect(pi.status).toBe("failed");
  });

  it("a charge a crashed capture left is applied by the next one, charged once", async () => {
    const checkout = await openCheckout();
    const crashed = await call("POST", `/v1/checkouts/${checkout.id}/capture`, {
      key: merchant.testKey,
      base: server.url,
      body: { paymentMethod: "pm_card_visa" },
      headers: { "x-test-fault": "after-rail-charge" },
    });
    expect(crashed.status).toBeGreaterThanOrEqual(500);
    const paid = await capture(checkout.id);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body).toMatchObject({ id: checkout.orderId, status: "paid" });
    expect(await railChargesFor(checkout.paymentIntentId)).toBe(1);
  });
});
