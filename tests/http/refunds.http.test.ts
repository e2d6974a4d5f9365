import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import { settleDuePaymentIntents } from "../../lib/payments/settle-payment-intents";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture, createCustomer, eventTypesFor, openCheckout, paidOrder, tick } from "../helpers/payments";

let m: TestMerchant;
let other: TestMerchant;
beforeAll(async () => {
  m = await createTestMerchant("Refunds");
  other = await createTestMerchant("Other");
});

const refund = (key: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  call("POST", "/v1/refunds", { key, body, headers });

describe("refunds", () => {
  it("partial then remainder by paymentIntentId and orderId; statuses, amounts and events follow", async () => {
    const { order } = await paidOrder(m.testKey, 1000);
    const first = await refund(m.testKey, { paymentIntentId: order.paymentIntentId, amount: 300, reason: "requested_by_customer" });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      object: "refund",
      status: "succeeded",
      amount: 300,
      currency: "USD",
      paymentIntentId: order.paymentIntentId,
      orderId: order.id,
      reason: "requested_by_customer",
      livemode: false,
    });
    expect(first.body.id).toMatch(/^re_/);
    let o = (await call("GET", `/v1/orders/${order.id}`, { key: m.testKey })).body;
    expect(o).toMatchObject({ status: "partially_refunded", amountRefunded: 300 });
    let pi = (await call("GET", `/v1/payment_intents/${order.paymentIntentId}`, { key: m.testKey })).body;
    expect(pi).toMatchObject({ amountCaptured: 1000, amountRefunded: 300 });
    expect(["captured", "settled"]).toContain(pi.status);

    const rest = await refund(m.testKey, { orderId: order.id });
    expect(rest.status).toBe(201);
    expect(rest.body.amount).toBe(700);
    o = (await call("GET", `/v1/orders/${order.id}`, { key: m.testKey })).body;
    expect(o).toMatchObject({ status: "refunded", amountRefunded: 1000 });
    pi = (await call("GET", `/v1/payment_intents/${order.paymentIntentId}`, { key: m.testKey })).body;
    expect(pi).toMatchObject({ status: "refunded", amountRefunded: 1000 });

    expect((await refund(m.testKey, { orderId: order.id })).status).toBe(409);
    expect((await refund(m.testKey, { orderId: order.id, amount: 1 })).status).toBe(409);
    const refundedTypes = (await eventTypesFor(m.testKey, order.id)).filter((t) => t === "order.refunded");
    expect(refundedTypes).toHaveLength(2);
    const piTypes = await eventTypesFor(m.testKey, order.paymentIntentId);
    expect(piTypes.filter((t) => t === "payment_intent.refunded")).toHaveLength(2);
    expect(piTypes.filter((t) => t === "payment_intent.captured")).toHaveLength(1);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("more than the remainder is 400; never captured is 409; bad input 400; scope 404", async () => {
    const { order } = await paidOrder(m.testKey, 500);
    const over = await refund(m.testKey, { paymentIntentId: order.paymentIntentId, amount: 501 });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe("VALIDATION_ERROR");
    const unpaid = await openCheckout(m.testKey);
    const never = await refund(m.testKey, { paymentIntentId: unpaid.paymentIntentId });
    expect(never.status).toBe(409);
    expect(never.body.error.code).toBe("CONFLICT");
    for (const body of [
      {},
      { paymentIntentId: order.paymentIntentId, amount: 0 },
      { paymentIntentId: order.paymentIntentId, amount: 1.5 },
      { paymentIntentId: order.paymentIntentId, extra: 1 },
    ]) {
      expect((await refund(m.testKey, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await refund(m.testKey, { paymentIntentId: order.paymentIntentId, orderId: unpaid.orderId })).status).toBe(400);
    expect((await refund(other.testKey, { paymentIntentId: order.paymentIntentId })).status).toBe(404);
    expect((await refund(m.liveKey, { orderId: order.id })).status).toBe(404);
    expect((await refund(m.testKey, { paymentIntentId: "pi_doesnotexist000000000000" })).status).toBe(404);
  });

  it("a refund the rail made before its request failed is recorded by the next refund, never made twice", async () => {
    const { order } = await paidOrder(m.testKey, 1000);
    // The request refunds 400 at the rail, then fails inside its transaction (nothing of it commits).
    const failed = await call("POST", "/v1/refunds", {
      key: m.testKey,
      body: { orderId: order.id, amount: 400 },
      headers: { "x-test-fault": "after-handler" },
    });
    expect(failed.status).toBe(500);
    // A later refund asking for 250 gets the rail's refund of 400 back and records it.
    const next = await call("POST", "/v1/refunds", { key: m.testKey, body: { orderId: order.id, amount: 250 } });
    expect(next.status).toBe(201);
    expect(next.body.amount).toBe(400);
    const pi = await call("GET", `/v1/payment_intents/${order.paymentIntentId}`, { key: m.testKey });
    expect(pi.body.amountRefunded).toBe(400);
    const railRefunded = await getDb().$queryRaw<{ amount_refunded: bigint }[]>`
      SELECT c.amount_refunded FROM test_rail_charges c JOIN payment_intents p ON p.rail_charge_id = c.id WHERE p.id = ${order.paymentIntentId}`;
    expect(Number(railRefunded[0].amount_refunded)).toBe(400);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("8 concurrent partial refunds of 300 on a 1000 capture: exactly 3 succeed", async () => {
    const { order } = await paidOrder(m.testKey, 1000);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        refund(m.testKey, { paymentIntentId: order.paymentIntentId, amount: 300 }, { "Idempotency-Key": `par-${order.id}-${i}` }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    const pi = (await call("GET", `/v1/payment_intents/${order.paymentIntentId}`, { key: m.testKey })).body;
    expect(pi.amountRefunded).toBe(900);
    const listed = await call("GET", `/v1/refunds?paymentIntentId=${order.paymentIntentId}`, { key: m.testKey });
    expect(listed.body.data).toHaveLength(3);
    const rail = await getDb().$queryRaw<{ amount_refunded: number }[]>`
      SELECT c.amount_refunded FROM test_rail_charges c JOIN payment_intents p ON p.rail_charge_id = c.id WHERE p.id = ${order.paymentIntentId}`;
    expect(rail[0].amount_refunded).toBe(900);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("a refund is idempotent with its key and credits a wallet payer back", async () => {
    const payer = await createCustomer(m.testKey, { amount: 800, currency: "usd" });
    const checkout = await openCheckout(m.testKey, { amount: 800 });
    expect((await capture(m.testKey, checkout.id, payer.id)).status).toBe(200);
    const headers = { "Idempotency-Key": `refund-${checkout.id}` };
    const a = await refund(m.testKey, { paymentIntentId: checkout.paymentIntentId, amount: 200 }, headers);
    const b = await refund(m.testKey, { paymentIntentId: checkout.paymentIntentId, amount: 200 }, headers);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(b.body).toEqual(a.body);
    const wallet = await call("POST", `/v1/customers/${payer.id}/fund`, { key: m.testKey, body: { amount: 1, currency: "usd" } });
    expect(wallet.body.balances).toEqual([{ currency: "USD", amount: 201 }]);
    expect((await call("GET", `/v1/refunds/${a.body.id}`, { key: m.testKey })).body).toEqual(a.body);
    expect((await call("GET", `/v1/refunds?paymentIntentId=${checkout.paymentIntentId}`, { key: m.testKey })).body.data).toEqual([a.body]);
    expect((await call("GET", `/v1/refunds/${a.body.id}`, { key: other.testKey })).status).toBe(404);
  });
});

describe("settlement and balance", () => {
  it("the tick settles captured test-mode PaymentIntents (SETTLEMENT_DELAY_SECONDS defaults to 0 in test mode)", async () => {
    const { order } = await paidOrder(m.testKey, 321);
    const res = await tick();
    expect(typeof res.body.paymentIntentsSettled).toBe("number");
    expect(typeof res.body.checkoutsExpired).toBe("number");
    const pi = (await call("GET", `/v1/payment_intents/${order.paymentIntentId}`, { key: m.testKey })).body;
    expect(pi.status).toBe("settled");
    expect(Date.parse(pi.settledAt)).toBeGreaterThanOrEqual(Date.parse(pi.capturedAt));
  });

  it("capture -> pending; settlement -> payable; a refund after settlement comes out of payable", async () => {
    const merchant = await createTestMerchant("Balance");
    const balance = async () => (await call("GET", "/v1/balance", { key: merchant.testKey })).body;
    expect(await balance()).toMatchObject({ object: "balance", pending: [], payable: [] });
    const a = await paidOrder(merchant.testKey, 1000);
    const b = await paidOrder(merchant.testKey, 400);
    expect((await refund(merchant.testKey, { orderId: b.order.id, amount: 100 })).status).toBe(201);
    // The shared server's tick may settle these at any moment; settle them here so the numbers are certain.
    await settleDuePaymentIntents(getDb(), { paymentIntentIds: [a.order.paymentIntentId, b.order.paymentIntentId] });
    expect(await balance()).toMatchObject({ pending: [{ currency: "USD", amount: 0 }], payable: [{ currency: "USD", amount: 1300 }] });
    const pi = (await call("GET", `/v1/payment_intents/${a.order.paymentIntentId}`, { key: merchant.testKey })).body;
    expect(pi.status).toBe("settled");
    expect(pi.settledAt).not.toBeNull();
    expect((await refund(merchant.testKey, { orderId: a.order.id, amount: 250 })).status).toBe(201);
    expect(await balance()).toMatchObject({ payable: [{ currency: "USD", amount: 1050 }] });
    expect((await eventTypesFor(merchant.testKey, a.order.paymentIntentId)).filter((t) => t === "payment_intent.settled")).toHaveLength(1);
    // A settled PaymentIntent is not settled twice.
    expect(await settleDuePaymentIntents(getDb(), { paymentIntentIds: [a.order.paymentIntentId] })).toBe(0);
    // Live mode sees none of it.
    expect((await call("GET", "/v1/balance", { key: merchant.liveKey })).body).toMatchObject({ pending: [], payable: [] });
    expect(await verifyLedger(getDb(), [merchant.merchantId])).toEqual([]);
  });
});
