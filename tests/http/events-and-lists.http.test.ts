import { beforeAll, describe, expect, it } from "vitest";
import { expireOverdueCheckouts } from "../../lib/checkouts/expire-checkouts";
import { getDb } from "../../lib/db";
import { DEFAULT_EVENT_TYPES } from "../../lib/events/types";
import { settleDuePaymentIntents } from "../../lib/payments/settle-payment-intents";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { allEvents, capture, openCheckout, paidOrder, sleep } from "../helpers/payments";

let m: TestMerchant;
beforeAll(async () => {
  m = await createTestMerchant("Events");
});

describe("events", () => {
  it("every event type of docs/api-reference.md fires once where it should, with data.object as GET returns it", async () => {
    // order.paid + payment_intent.captured, then payment_intent.settled, then refunds.
    const { order } = await paidOrder(m.testKey, 1000);
    await settleDuePaymentIntents(getDb(), { paymentIntentIds: [order.paymentIntentId] });
    const refunded = await call("POST", "/v1/refunds", { key: m.testKey, body: { orderId: order.id } });
    expect(refunded.status).toBe(201);
    // payment_intent.failed + order.canceled
    const declined = await openCheckout(m.testKey);
    expect((await capture(m.testKey, declined.id, "pm_card_chargeDeclined")).status).toBe(402);
    // payment_intent.canceled + order.canceled
    const canceled = await openCheckout(m.testKey);
    expect((await call("POST", `/v1/checkouts/${canceled.id}/cancel`, { key: m.testKey })).status).toBe(200);
    // payment_intent.expired + order.canceled (the tick's expiry: a read shows it expired and writes nothing)
    const expired = await openCheckout(m.testKey, { expiresInSeconds: 1 });
    await sleep(1100);
    expect((await call("GET", `/v1/checkouts/${expired.id}`, { key: m.testKey })).body.status).toBe("expired");
    await expireOverdueCheckouts(getDb(), { checkoutIds: [expired.id] });
    // payment_intent.processing (a rail that answers later: the test rail's pm_card_pending)
    const processing = await openCheckout(m.testKey);
    expect((await capture(m.testKey, processing.id, "pm_card_pending")).status).toBe(200);

    const events = await allEvents(m.testKey);
    const about = (id: string) => events.filter((e) => e.data.object.id === id).map((e) => e.type);
    expect(about(order.id)).toEqual(["order.paid", "order.refunded"]);
    expect(about(order.paymentIntentId)).toEqual(["payment_intent.captured", "payment_intent.settled", "payment_intent.refunded"]);
    expect(about(declined.paymentIntentId)).toEqual(["payment_intent.failed"]);
    expect(about(declined.orderId)).toEqual(["order.canceled"]);
    expect(about(canceled.paymentIntentId)).toEqual(["payment_intent.canceled"]);
    expect(about(canceled.orderId)).toEqual(["order.canceled"]);
    expect(about(expired.paymentIntentId)).toEqual(["payment_intent.expired"]);
    expect(about(expired.orderId)).toEqual(["order.canceled"]);
    // Every type but the opt-in dispute.* ones (tests/http/disputes.http.test.ts).
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(DEFAULT_EVENT_TYPES));

    for (const event of events) {
      expect(event).toMatchObject({ object: "event", livemode: false });
      expect(event.id).toMatch(/^evt_[0-9A-Za-z]{24}$/);
      expect((await call("GET", `/v1/events/${event.id}`, { key: m.testKey })).body).toEqual(event);
    }
    // data.object is the object at the time of the event; the latest event about an object equals its GET now.
    const latest = (id: string) => events.filter((e) => e.data.object.id === id).at(-1).data.object;
    expect(latest(order.id)).toEqual((await call("GET", `/v1/orders/${order.id}`, { key: m.testKey })).body);
    expect(latest(order.paymentIntentId)).toEqual(
      (await call("GET", `/v1/payment_intents/${order.paymentIntentId}`, { key: m.testKey })).body,
    );
    const paidEvent = events.find((e) => e.type === "order.paid");
    expect(paidEvent.data.object).toMatchObject({ status: "paid", amountRefunded: 0 });

    const filtered = await call("GET", "/v1/events?type=order.canceled", { key: m.testKey });
    expect(filtered.body.data).toHaveLength(3);
    expect(filtered.body.data.every((e: any) => e.type === "order.canceled")).toBe(true);
    expect((await call("GET", "/v1/events?type=order.nope", { key: m.testKey })).status).toBe(400);
    const stranger = await createTestMerchant("Stranger");
    expect((await call("GET", `/v1/events/${events[0].id}`, { key: stranger.testKey })).status).toBe(404);
    expect((await call("GET", `/v1/events/${events[0].id}`, { key: m.liveKey })).status).toBe(404);
    expect((await call("GET", "/v1/events", { key: stranger.testKey })).body.data).toEqual([]);
  });
});

async function walk(key: string, path: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let startingAfter: string | undefined;
  for (let page = 0; page < 50; page++) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await call("GET", `${path}${sep}limit=${limit}${startingAfter ? `&startingAfter=${startingAfter}` : ""}`, { key });
    expect(res.status).toBe(200);
    expect(res.body.object).toBe("list");
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    ids.push(...res.body.data.map((o: any) => o.id));
    if (!res.body.hasMore) return ids;
    startingAfter = res.body.data.at(-1).id;
  }
  throw new Error("too many pages");
}

describe("lists page newest-first", () => {
  it("checkouts, PaymentIntents, orders, refunds and events", async () => {
    const merchant = await createTestMerchant("Lists");
    const checkouts: any[] = [];
    for (let i = 0; i < 7; i++) checkouts.push(await openCheckout(merchant.testKey, { amount: 100 + i }));
    for (const c of checkouts.slice(0, 4)) expect((await capture(merchant.testKey, c.id)).status).toBe(200);
    const refunds: string[] = [];
    for (const c of checkouts.slice(0, 3))
      refunds.push((await call("POST", "/v1/refunds", { key: merchant.testKey, body: { orderId: c.orderId, amount: 10 } })).body.id);
    const newestFirst = [...checkouts].reverse();

    for (const limit of [1, 2, 3, 100]) {
      expect(await walk(merchant.testKey, "/v1/checkouts", limit)).toEqual(newestFirst.map((c) => c.id));
      expect(await walk(merchant.testKey, "/v1/payment_intents", limit)).toEqual(newestFirst.map((c) => c.paymentIntentId));
      expect(await walk(merchant.testKey, "/v1/orders", limit)).toEqual(newestFirst.map((c) => c.orderId));
      expect(await walk(merchant.testKey, "/v1/refunds", limit)).toEqual([...refunds].reverse());
    }
    expect(await walk(merchant.testKey, "/v1/checkouts?status=complete", 2)).toEqual(newestFirst.slice(3).map((c) => c.id));
    expect(await walk(merchant.testKey, "/v1/checkouts?status=open", 2)).toEqual(newestFirst.slice(0, 3).map((c) => c.id));
    expect(await walk(merchant.testKey, "/v1/orders?status=partially_refunded", 1)).toEqual(newestFirst.slice(4).map((c) => c.orderId));
    expect(await walk(merchant.testKey, "/v1/payment_intents?status=requires_payment", 5)).toEqual(
      newestFirst.slice(0, 3).map((c) => c.paymentIntentId),
    );

    const events = await walk(merchant.testKey, "/v1/events", 3);
    const full = (await call("GET", "/v1/events?limit=100", { key: merchant.testKey })).body.data;
    expect(events).toEqual(full.map((e: any) => e.id));
    expect(new Set(events).size).toBe(events.length);
    const times = full.map((e: any) => Date.parse(e.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    expect((await call("GET", "/v1/checkouts?status=bogus", { key: merchant.testKey })).status).toBe(400);
    expect((await call("GET", "/v1/checkouts?limit=0", { key: merchant.testKey })).status).toBe(400);
    expect((await call("GET", "/v1/checkouts?startingAfter=cs_nope", { key: merchant.testKey })).status).toBe(400);
    expect((await call("GET", "/v1/checkouts", { key: merchant.liveKey })).body.data).toEqual([]);
  });
});
