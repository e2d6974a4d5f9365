// Disputes (docs/disputes.md, issue 36 items 1 and 2) against the shared server: the test rail's dispute methods open a
// dispute on a tick after capture (event and signed webhook to the endpoints that subscribe to dispute.* by name, never
// to one without a subscription), the amount and the fee leave the balance and come back when won; evidence decides
// the outcome as Stripe's test mode does; accepting loses; an inquiry stays a warning; a payment is disputed once and a
// refund never takes what a dispute holds, also when they race.
import { beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "agent-payments-sdk";
import { getDb, transaction } from "../../lib/db";
import { openDispute } from "../../lib/disputes/open-dispute";
import { createScopedApiKey } from "../../lib/merchants/api-keys";
import { normalizePermissions } from "../../lib/merchants/permissions";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import { paymentMethodForTestCard } from "../../lib/rails/test-cards";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { allEvents, paidOrder, sleep, tick } from "../helpers/payments";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

const DISPUTE_TYPES = ["dispute.created", "dispute.updated", "dispute.closed"];
const METHODS: [string, string][] = [
  ["pm_card_createDispute", "fraudulent"],
  ["pm_card_createDisputeProductNotReceived", "product_not_received"],
  ["pm_card_createDisputeUnrecognized", "unrecognized"],
  ["pm_card_createDisputeDuplicate", "duplicate"],
  ["pm_card_createDisputeSubscriptionCanceled", "subscription_canceled"],
];

interface Hooks {
  subscribed: Receiver;
  secret: string;
  unsubscribed: Receiver;
}

/** Two endpoints: one naming the dispute types (and order.paid), one with no subscription at all. */
async function hooksFor(key: string): Promise<Hooks> {
  const subscribed = await startReceiver();
  const unsubscribed = await startReceiver();
  const a = await call("POST", "/v1/webhook-endpoints", {
    key,
    body: { url: subscribed.url, enabledEvents: [...DISPUTE_TYPES, "order.paid"] },
  });
  const b = await call("POST", "/v1/webhook-endpoints", { key, body: { url: unsubscribed.url } });
  expect([a.status, b.status]).toEqual([201, 201]);
  return { subscribed, secret: a.body.secret, unsubscribed };
}

async function tickUntil(condition: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await tick();
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error("condition not met");
    await sleep(250);
  }
}

const disputesOf = async (key: string, paymentIntentId: string) =>
  (await call("GET", `/v1/disputes?paymentIntentId=${paymentIntentId}`, { key })).body.data as any[];

/** Captures with a dispute test method and ticks until its dispute is open; returns the order and the dispute. */
async function disputed(key: string, method = "pm_card_createDispute", amount = 1000) {
  const { order } = await paidOrder(key, amount, method);
  await tickUntil(async () => (await disputesOf(key, order.paymentIntentId)).length === 1);
  const [dispute] = await disputesOf(key, order.paymentIntentId);
  return { order, dispute };
}

const payable = async (key: string) =>
  ((await call("GET", "/v1/balance", { key })).body.payable as { currency: string; amount: number }[]).find((b) => b.currency === "USD")
    ?.amount ?? 0;

const getDispute = async (key: string, id: string) => (await call("GET", `/v1/disputes/${id}`, { key })).body;

async function submit(key: string, id: string, text: string) {
  const res = await call("POST", `/v1/disputes/${id}`, {
    key,
    body: { evidence: { uncategorizedText: text, productDescription: "A plan" }, submit: true },
  });
  expect(res.status).toBe(200);
  return res.body;
}

function expectNoDisputeDeliveries(receiver: Receiver) {
  expect(receiver.received.filter((d) => d.event.type.startsWith("dispute."))).toEqual([]);
}

describe("disputes in the test rail", () => {
  let m: TestMerchant;
  let hooks: Hooks;
  beforeAll(async () => {
    m = await createTestMerchant("Disputes");
    hooks = await hooksFor(m.testKey);
  });

  it("the pay page's dispute card numbers map to the dispute methods", () => {
    expect(paymentMethodForTestCard("4000 0000 0000 0259")).toBe("pm_card_createDispute");
    expect(paymentMethodForTestCard("4000000000002685")).toBe("pm_card_createDisputeProductNotReceived");
    expect(paymentMethodForTestCard("4000-0000-0000-1976")).toBe("pm_card_createDisputeInquiry");
  });

  it("each dispute method opens a dispute after capture: event, signed webhook, amount and fee out of the balance", async () => {
    const m1 = await createTestMerchant("Disputes: each method");
    const h = await hooksFor(m1.testKey);
    const orders = await Promise.all(METHODS.map(([method]) => paidOrder(m1.testKey, 1000, method)));
    await tickUntil(async () => (await call("GET", "/v1/disputes", { key: m1.testKey })).body.data.length === METHODS.length);
    for (const [index, [, reason]] of METHODS.entries()) {
      const [dispute] = await disputesOf(m1.testKey, orders[index].order.paymentIntentId);
      expect(dispute).toMatchObject({
        object: "dispute",
        status: "needs_response",
        reason,
        amount: 1000,
        currency: "USD",
        fee: 1500,
        paymentIntentId: orders[index].order.paymentIntentId,
        isInquiry: false,
        evidence: {},
        evidenceSubmittedAt: null,
        closedAt: null,
        livemode: false,
      });
      expect(dispute.id).toMatch(/^dp_[0-9A-Za-z]{24}$/);
      expect(Date.parse(dispute.evidenceDueBy) - Date.parse(dispute.createdAt)).toBe(7 * 86_400_000);
      expect(await getDispute(m1.testKey, dispute.id)).toEqual(dispute);
    }
    // 5 captures of 10.00 settled (50.00), then 5 disputes took 10.00 and the 15.00 fee each: -75.00.
    expect(await payable(m1.testKey)).toBe(5 * 1000 - 5 * 2500);
    expect(await verifyLedger(getDb(), [m1.merchantId])).toEqual([]);

    const created = (await allEvents(m1.testKey)).filter((e) => e.type === "dispute.created");
    expect(created).toHaveLength(METHODS.length);
    // The list shows each dispute as its event did when it was opened (the event's copy serialized from the row written).
    const byId = (a: any, b: any) => a.id.localeCompare(b.id);
    const listed = (await call("GET", "/v1/disputes", { key: m1.testKey })).body.data;
    expect([...listed].sort(byId)).toEqual(created.map((e) => e.data.object).sort(byId));
    await tickUntil(async () => h.subscribed.received.filter((d) => d.event.type === "dispute.created").length === METHODS.length);
    for (const delivery of h.subscribed.received.filter((d) => d.event.type === "dispute.created")) {
      expect(verifyWebhook(delivery.rawBody, String(delivery.headers["x-service-signature"]), h.secret).id).toBe(delivery.event.id);
      expect(delivery.event.data.object).toMatchObject({ object: "dispute", status: "needs_response", fee: 1500 });
    }
    // The endpoint without a subscription had the payments' events, never a dispute's.
    await h.unsubscribed.waitFor((r) => r.filter((d) => d.event.type === "order.paid").length === METHODS.length);
    expectNoDisputeDeliveries(h.unsubscribed);
    await Promise.all([h.subscribed.close(), h.unsubscribed.close()]);
  });

  it("winning evidence: under review, then won on a tick; the amount and the fee come back", async () => {
    const before = await payable(m.testKey);
    const { order, dispute } = await disputed(m.testKey);
    expect(await payable(m.testKey)).toBe(before + 1000 - 2500);
    const saved = await call("POST", `/v1/disputes/${dispute.id}`, { key: m.testKey, body: { evidence: { customerName: "Jenny Rosen" } } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ status: "needs_response", evidence: { customerName: "Jenny Rosen" } });
    const review = await submit(m.testKey, dispute.id, "The agent's mandate and receipt. winning_evidence");
    expect(review).toMatchObject({ status: "under_review", evidence: { customerName: "Jenny Rosen", productDescription: "A plan" } });
    expect(review.evidenceSubmittedAt).toEqual(expect.any(String));
    await tickUntil(async () => (await getDispute(m.testKey, dispute.id)).status === "won");
    const won = await getDispute(m.testKey, dispute.id);
    expect(won.closedAt).toEqual(expect.any(String));
    expect(await payable(m.testKey)).toBe(before + 1000);
    // Won: nothing held any more, so the whole payment may be refunded.
    expect((await call("POST", "/v1/refunds", { key: m.testKey, body: { orderId: order.id } })).status).toBe(201);
    const types = (await allEvents(m.testKey)).filter((e) => e.data.object.id === dispute.id).map((e) => e.type);
    expect(types).toEqual(["dispute.created", "dispute.updated", "dispute.updated", "dispute.closed"]);
    await tickUntil(async () =>
      hooks.subscribed.received.some((d) => d.event.type === "dispute.closed" && d.event.data.object.id === dispute.id),
    );
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("losing evidence: lost on a tick; the money stays gone and no refund can take it", async () => {
    const before = await payable(m.testKey);
    const { order, dispute } = await disputed(m.testKey, "pm_card_createDisputeProductNotReceived", 2000);
    await submit(m.testKey, dispute.id, "losing_evidence");
    await tickUntil(async () => (await getDispute(m.testKey, dispute.id)).status === "lost");
    expect(await payable(m.testKey)).toBe(before + 2000 - 2000 - 1500);
    const refund = await call("POST", "/v1/refunds", { key: m.testKey, body: { orderId: order.id, amount: 1 } });
    expect(refund.status).toBe(409);
    expect(refund.body.error.details).toMatchObject({ reason: "disputed", disputeId: dispute.id, undisputedRemainder: 0 });
    // Closed: no more evidence, no second answer.
    expect((await call("POST", `/v1/disputes/${dispute.id}`, { key: m.testKey, body: { submit: true } })).status).toBe(409);
    expect((await call("POST", `/v1/disputes/${dispute.id}/close`, { key: m.testKey })).status).toBe(409);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("accepting closes it lost at once; the tick changes nothing after", async () => {
    const before = await payable(m.testKey);
    const { dispute } = await disputed(m.testKey, "pm_card_createDisputeDuplicate", 700);
    const accepted = await call("POST", `/v1/disputes/${dispute.id}/close`, { key: m.testKey });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: "lost", closedAt: expect.any(String) });
    await tick();
    expect((await getDispute(m.testKey, dispute.id)).status).toBe("lost");
    expect(await payable(m.testKey)).toBe(before + 700 - 700 - 1500);
    const types = (await allEvents(m.testKey)).filter((e) => e.data.object.id === dispute.id).map((e) => e.type);
    expect(types).toEqual(["dispute.created", "dispute.closed"]);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("an inquiry is a warning: no money held, no fee, and it closes as warning_closed", async () => {
    const before = await payable(m.testKey);
    const { dispute } = await disputed(m.testKey, "pm_card_createDisputeInquiry", 1200);
    expect(dispute).toMatchObject({ status: "warning_needs_response", isInquiry: true, fee: 0, amount: 1200, reason: "general" });
    expect(await payable(m.testKey)).toBe(before + 1200);
    expect(await submit(m.testKey, dispute.id, "winning_evidence")).toMatchObject({ status: "warning_under_review" });
    await tickUntil(async () => (await getDispute(m.testKey, dispute.id)).status === "warning_closed");
    expect(await payable(m.testKey)).toBe(before + 1200);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("a partly refunded payment is disputed for what is left, and no refund takes more while it is open", async () => {
    const { order } = await paidOrder(m.testKey, 1000, "pm_card_createDispute");
    expect((await call("POST", "/v1/refunds", { key: m.testKey, body: { orderId: order.id, amount: 300 } })).status).toBe(201);
    await tickUntil(async () => (await disputesOf(m.testKey, order.paymentIntentId)).length === 1);
    const [dispute] = await disputesOf(m.testKey, order.paymentIntentId);
    expect(dispute.amount).toBe(700);
    for (const body of [{ orderId: order.id }, { orderId: order.id, amount: 1 }, { orderId: order.id, amount: 700 }]) {
      const refused = await call("POST", "/v1/refunds", { key: m.testKey, body });
      expect(refused.status, JSON.stringify(body)).toBe(409);
      expect(refused.body.error.details.reason).toBe("disputed");
    }
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("lists page newest first, filter, and stay in their merchant and mode", async () => {
    const listed = await call("GET", "/v1/disputes?limit=2", { key: m.testKey });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ object: "list", hasMore: true });
    expect(listed.body.data).toHaveLength(2);
    const next = await call("GET", `/v1/disputes?limit=100&startingAfter=${listed.body.data[1].id}`, { key: m.testKey });
    const all = [...listed.body.data, ...next.body.data];
    expect(new Set(all.map((d: any) => d.id)).size).toBe(all.length);
    expect(all.map((d: any) => d.createdAt)).toEqual([...all.map((d: any) => d.createdAt)].sort().reverse());
    const lost = await call("GET", "/v1/disputes?status=lost", { key: m.testKey });
    expect(lost.body.data.length).toBeGreaterThanOrEqual(2);
    expect(lost.body.data.every((d: any) => d.status === "lost")).toBe(true);
    const other = await createTestMerchant("Disputes: other");
    expect((await call("GET", `/v1/disputes/${all[0].id}`, { key: other.testKey })).status).toBe(404);
    expect((await call("GET", `/v1/disputes/${all[0].id}`, { key: m.liveKey })).status).toBe(404);
    expect((await call("POST", `/v1/disputes/${all[0].id}/close`, { key: other.testKey })).status).toBe(404);
    expect((await call("GET", "/v1/disputes", { key: other.testKey })).body.data).toEqual([]);
    expect((await call("GET", "/v1/disputes?status=open", { key: m.testKey })).status).toBe(400);
    expect((await call("POST", `/v1/disputes/${all[0].id}`, { key: m.testKey, body: {} })).status).toBe(400);
    expect((await call("POST", `/v1/disputes/${all[0].id}`, { key: m.testKey, body: { evidence: { nope: "x" } } })).status).toBe(400);
  });

  it("a restricted key needs disputes:read to read them and disputes:write to answer them", async () => {
    const make = (permissions: Record<string, string>) =>
      transaction((tx) =>
        createScopedApiKey(
          tx,
          { merchantId: m.merchantId, livemode: false },
          { name: "disputes", permissions: normalizePermissions(permissions) },
        ),
      );
    const reader = await make({ disputes: "read" });
    const none = await make({ refunds: "write" });
    const [first] = (await call("GET", "/v1/disputes?limit=1", { key: m.testKey })).body.data;
    expect((await call("GET", "/v1/disputes", { key: reader.secret })).status).toBe(200);
    expect((await call("GET", `/v1/disputes/${first.id}`, { key: reader.secret })).status).toBe(200);
    const denied = await call("POST", `/v1/disputes/${first.id}/close`, { key: reader.secret });
    expect(denied.status).toBe(403);
    expect(denied.body.error.details).toEqual({ reason: "permission_denied", resource: "disputes", required: "write" });
    expect((await call("GET", "/v1/disputes", { key: none.secret })).body.error.details).toMatchObject({
      resource: "disputes",
      required: "read",
    });
  });

  it("an endpoint without a subscription never receives dispute.*, not even when a dispute event is resent to all", async () => {
    const event = (await allEvents(m.testKey)).find((e) => e.type === "dispute.created");
    const resent = await call("POST", `/v1/events/${event.id}/resend`, { key: m.testKey, body: {} });
    expect(resent.status).toBeLessThan(300);
    await tickUntil(async () => hooks.subscribed.received.filter((d) => d.event.id === event.id).length >= 2);
    await tick();
    expect(hooks.unsubscribed.received.length).toBeGreaterThan(0);
    expectNoDisputeDeliveries(hooks.unsubscribed);
  });
});

describe("disputes under concurrency", () => {
  let m: TestMerchant;
  beforeAll(async () => {
    m = await createTestMerchant("Disputes: races");
  });

  it("a payment is disputed once: parallel ticks and parallel openings make one dispute; the unique index refuses a second", async () => {
    const { order } = await paidOrder(m.testKey, 900, "pm_card_createDispute");
    await tick(); // settled
    await sleep(2_100);
    const [, direct] = await Promise.all([
      Promise.all(Array.from({ length: 4 }, () => tick())),
      Promise.all(
        Array.from({ length: 4 }, () =>
          transaction((tx) => openDispute(tx, order.paymentIntentId, { reason: "fraudulent", inquiry: false })),
        ),
      ),
    ]);
    expect(direct.filter((d) => d !== null).length).toBeLessThanOrEqual(1);
    expect(await disputesOf(m.testKey, order.paymentIntentId)).toHaveLength(1);
    await expect(
      getDb()
        .$executeRaw`INSERT INTO disputes (id, merchant_id, livemode, payment_intent_id, status, reason, amount, currency, fee, evidence_due_by)
        VALUES ('dp_second', ${m.merchantId}, false, ${order.paymentIntentId}, 'needs_response', 'fraudulent', 1, 'USD', 0, now())`,
    ).rejects.toThrow(/unique|duplicate/i);
    const created = (await allEvents(m.testKey)).filter(
      (e) => e.type === "dispute.created" && e.data.object.paymentIntentId === order.paymentIntentId,
    );
    expect(created).toHaveLength(1);
    expect(await payable(m.testKey)).toBe(900 - 900 - 1500);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("refunds racing the dispute's opening: together they never take more than was captured", async () => {
    for (let round = 0; round < 3; round++) {
      const { order } = await paidOrder(m.testKey, 1000, "pm_card_createDisputeUnrecognized");
      await tick(); // settled
      await sleep(2_100);
      const results = await Promise.all([
        ...Array.from({ length: 4 }, (_, i) =>
          call("POST", "/v1/refunds", {
            key: m.testKey,
            body: { orderId: order.id, amount: 400 },
            headers: { "Idempotency-Key": `race-${order.id}-${i}` },
          }),
        ),
        tick(),
        tick(),
      ]);
      const refunds = results.slice(0, 4);
      for (const r of refunds) expect([201, 400, 409]).toContain(r.status);
      const refunded = refunds.filter((r) => r.status === 201).length * 400;
      await tick();
      const disputes = await disputesOf(m.testKey, order.paymentIntentId);
      expect(disputes).toHaveLength(1); // 1000 - at most 800 refunded leaves something to dispute
      expect(refunded + disputes[0].amount).toBe(1000);
      const pi = (await call("GET", `/v1/payment_intents/${order.paymentIntentId}`, { key: m.testKey })).body;
      expect(pi.amountRefunded).toBe(refunded);
      // While it is open, parallel refunds are all refused.
      const more = await Promise.all(
        Array.from({ length: 3 }, (_, i) =>
          call("POST", "/v1/refunds", {
            key: m.testKey,
            body: { orderId: order.id, amount: 1 },
            headers: { "Idempotency-Key": `more-${order.id}-${i}` },
          }),
        ),
      );
      expect(more.map((r) => r.status)).toEqual([409, 409, 409]);
    }
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });
});
