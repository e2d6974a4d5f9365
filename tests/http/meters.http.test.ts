// /v1/meters API semantics: creation and validation, usage records (deduplicated by idempotencyKey),
// prepaid reservations, top-up, close, and scope (another merchant's or mode's meter is a 404).
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { startTestServer } from "../helpers/server";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { tickUntil, tickUntilSettled } from "../helpers/meters";
import { allEvents, createCustomer } from "../helpers/payments";

const PRICE = 400_000; // 0.4 of a cent in base units

let m: TestMerchant;
let customerId: string;
// A fresh merchant per test: each has its own rate-limit budget (RATE_LIMIT_MAX per key).
beforeEach(async () => {
  m = await createTestMerchant();
  customerId = (await createCustomer(m.testKey, { amount: 10_000, currency: "usd" })).id;
});

async function openMeter(body: Record<string, unknown> = {}, key = m.testKey) {
  const res = await call("POST", "/v1/meters", {
    key,
    body: { customerId, currency: "usd", thresholdMinor: 100, prepaid: false, ...body },
  });
  if (res.status !== 201) throw new Error(`open meter: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const usage = (meterId: string, body: Record<string, unknown>, key = m.testKey) =>
  call("POST", `/v1/meters/${meterId}/usage`, { key, body });

describe("meters: create, read, list", () => {
  it("opens a post-paid meter with base units and reads it back", async () => {
    const created = await call("POST", "/v1/meters", {
      key: m.testKey,
      body: { customerId, currency: "usd", thresholdMinor: 50, prepaid: false, metadata: { agent: "a1" } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^mtr_[0-9A-Za-z]{24}$/),
      object: "meter",
      status: "open",
      customerId,
      currency: "USD",
      prepaid: false,
      paymentMethod: customerId,
      thresholdMinor: 50,
      baseUnitsPerMinor: 1_000_000,
      accruedBase: 0,
      reservedBase: 0,
      budgetBase: null,
      availableBase: null,
      usedBase: 0,
      billedMinor: 0,
      outstandingMinor: 0,
      settlementCount: 0,
      fundedMinor: null,
      refundedMinor: null,
      metadata: { agent: "a1" },
      livemode: false,
      closedAt: null,
      createdAt: expect.any(String),
    });
    expect((await call("GET", `/v1/meters/${created.body.id}`, { key: m.testKey })).body).toEqual(created.body);

    const prepaid = await openMeter({ prepaid: true, budgetMinor: 5, paymentMethod: "pm_card_visa" });
    expect(prepaid).toMatchObject({
      prepaid: true,
      paymentMethod: "pm_card_visa",
      budgetBase: 5_000_000,
      availableBase: 5_000_000,
      fundedMinor: 5,
      refundedMinor: 0,
    });

    const list = await call("GET", `/v1/meters?customerId=${customerId}&limit=2`, { key: m.testKey });
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([prepaid.id, created.body.id]);
    expect(list.body.data[1]).toEqual(created.body);
    expect((await call("GET", "/v1/meters?status=closed", { key: m.testKey })).body.data).toEqual([]);
  });

  it("refuses bad input with field errors, never a 500", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ customerId, currency: "usd", thresholdMinor: 1 }, "prepaid"],
      [{ customerId, currency: "usd", thresholdMinor: 0, prepaid: false }, "thresholdMinor"],
      [{ customerId, currency: "usd", thresholdMinor: 1.5, prepaid: false }, "thresholdMinor"],
      [{ customerId, currency: "dollars", thresholdMinor: 1, prepaid: false }, "currency"],
      [{ customerId, currency: "usd", thresholdMinor: 1, prepaid: false, budgetMinor: 10 }, "budgetMinor"],
      [{ customerId, currency: "usd", thresholdMinor: 1, prepaid: true, budgetMinor: -1 }, "budgetMinor"],
      [{ customerId, currency: "usd", thresholdMinor: 1, prepaid: "yes" }, "prepaid"],
      [{ customerId, currency: "usd", thresholdMinor: 1, prepaid: false, paymentMethod: "pm_nope" }, "paymentMethod"],
      [{ customerId, currency: "usd", thresholdMinor: 1, prepaid: false, baseUnitsPerMinor: 0 }, "baseUnitsPerMinor"],
      [{ currency: "usd", thresholdMinor: 1, prepaid: false }, "customerId"],
    ];
    for (const [body, path] of cases) {
      const res = await call("POST", "/v1/meters", { key: m.testKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    }
    const unknownCustomer = await call("POST", "/v1/meters", {
      key: m.testKey,
      body: { customerId: "cus_doesnotexist000000000000", currency: "usd", thresholdMinor: 1, prepaid: false },
    });
    expect(unknownCustomer.status).toBe(404);
  });

  it("another merchant's meter, or one of the other mode, is not found", async () => {
    const meter = await openMeter();
    const other = await createTestMerchant();
    for (const key of [other.testKey, m.liveKey]) {
      expect((await call("GET", `/v1/meters/${meter.id}`, { key })).status).toBe(404);
      expect((await usage(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "x" }, key)).status).toBe(404);
    }
    expect((await call("GET", `/v1/meters/${meter.id}`, { key: m.testKey })).body.accruedBase).toBe(0);
    expect((await call("GET", "/v1/meters/mtr_nope", { key: m.testKey })).status).toBe(404);
  });
});

describe("meters: post-paid usage records", () => {
  it("records usage in base units; a retried idempotencyKey counts once; other usage under it is refused", async () => {
    const meter = await openMeter();
    const first = await usage(meter.id, { quantity: 3, unitPriceMinor: PRICE, idempotencyKey: "call-1" });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.stringMatching(/^mu_[0-9A-Za-z]{24}$/),
      object: "meter_usage_record",
      meterId: meter.id,
      quantity: 3,
      unitPriceMinor: PRICE,
      unitPriceBase: PRICE,
      unitPriceDecimal: "0.4",
      amountBase: 1_200_000,
      idempotencyKey: "call-1",
      livemode: false,
      createdAt: expect.any(String),
    });
    const again = await usage(meter.id, { quantity: 3, unitPriceMinor: PRICE, idempotencyKey: "call-1" });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const different = await usage(meter.id, { quantity: 4, unitPriceMinor: PRICE, idempotencyKey: "call-1" });
    expect(different.status).toBe(400);
    expect(different.body.error.details.fields[0].path).toBe("idempotencyKey");
    expect((await call("GET", `/v1/meters/${meter.id}`, { key: m.testKey })).body).toMatchObject({
      accruedBase: 1_200_000,
      usedBase: 1_200_000,
    });
  });

  it("concurrent records with one key count once; distinct keys all count", async () => {
    const meter = await openMeter();
    const same = await Promise.all(
      Array.from({ length: 10 }, () => usage(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "dup" })),
    );
    expect(same.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(same.map((r) => r.body.id)).size).toBe(1);
    await Promise.all(Array.from({ length: 20 }, (_, i) => usage(meter.id, { quantity: 1, unitPriceMinor: 7, idempotencyKey: `k${i}` })));
    expect((await call("GET", `/v1/meters/${meter.id}`, { key: m.testKey })).body.accruedBase).toBe(PRICE + 20 * 7);
  });

  it("validates usage: whole positive quantity, integer base-unit price, a key", async () => {
    const meter = await openMeter();
    const cases: [Record<string, unknown>, string][] = [
      [{ quantity: 0, unitPriceMinor: 1, idempotencyKey: "a" }, "quantity"],
      [{ quantity: 1.5, unitPriceMinor: 1, idempotencyKey: "a" }, "quantity"],
      [{ quantity: 1, unitPriceMinor: 0.4, idempotencyKey: "a" }, "unitPriceMinor"],
      [{ quantity: 1, unitPriceMinor: -1, idempotencyKey: "a" }, "unitPriceMinor"],
      [{ quantity: 1, unitPriceMinor: 1 }, "idempotencyKey"],
      [{ quantity: 1, unitPriceMinor: 1, idempotencyKey: "" }, "idempotencyKey"],
      [{ quantity: 1_000_000_000, unitPriceMinor: 1e12, idempotencyKey: "a" }, "quantity"],
    ];
    for (const [body, path] of cases) {
      const res = await usage(meter.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    }
  });

  it("a prepaid meter takes reservations, not usage records (409)", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 10 });
    const res = await usage(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "p" });
    expect(res.status).toBe(409);
    expect((await call("GET", `/v1/meters/${meter.id}`, { key: m.testKey })).body.usedBase).toBe(0);
  });
});

const reserve = (meterId: string, body: Record<string, unknown>, key = m.testKey) =>
  call("POST", `/v1/meters/${meterId}/reservations`, { key, body });
const finish = (meterId: string, rid: string, action: "commit" | "release", key = m.testKey) =>
  call("POST", `/v1/meters/${meterId}/reservations/${rid}/${action}`, { key, body: {} });
const meterOf = async (id: string) => (await call("GET", `/v1/meters/${id}`, { key: m.testKey })).body;
const paymentsOf = async (meterId: string, key = m.testKey) =>
  (await call("GET", `/v1/payment_intents?meterId=${meterId}&limit=100`, { key })).body.data;

describe("meters: prepaid reservations", () => {
  it("reserve holds budget, commit bills it, release gives it back; repeats are idempotent, crossings are 409", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 1 }); // 1,000,000 base units
    const held = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE });
    expect(held.status).toBe(201);
    expect(held.body).toMatchObject({
      id: expect.stringMatching(/^mres_[0-9A-Za-z]{24}$/),
      object: "meter_reservation",
      status: "held",
      amountBase: PRICE,
      meterId: meter.id,
    });
    expect(await meterOf(meter.id)).toMatchObject({ reservedBase: PRICE, availableBase: 1_000_000 - PRICE, accruedBase: 0 });

    const committed = await finish(meter.id, held.body.id, "commit");
    expect(committed.status).toBe(200);
    expect(committed.body.status).toBe("committed");
    expect((await finish(meter.id, held.body.id, "commit")).body.status).toBe("committed"); // repeat: same answer
    expect((await finish(meter.id, held.body.id, "release")).status).toBe(409);
    // Drawn from the funds: used, never accrued for a charge.
    expect(await meterOf(meter.id)).toMatchObject({ reservedBase: 0, usedBase: PRICE, accruedBase: 0, availableBase: 1_000_000 - PRICE });

    const second = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE });
    const released = await finish(meter.id, second.body.id, "release");
    expect(released.body).toMatchObject({ status: "released", releaseReason: "failed" });
    expect((await finish(meter.id, second.body.id, "release")).status).toBe(200);
    expect((await finish(meter.id, second.body.id, "commit")).status).toBe(409);
    expect(await meterOf(meter.id)).toMatchObject({ reservedBase: 0, usedBase: PRICE, availableBase: 1_000_000 - PRICE });
    expect((await finish(meter.id, "mres_doesnotexist00000000000", "commit")).status).toBe(404);
  });

  it("refuses a reservation the budget cannot cover: 402 insufficient_budget with a top-up prompt; top-up makes room", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 1 });
    expect((await reserve(meter.id, { quantity: 2, unitPriceMinor: PRICE })).status).toBe(201);
    const refused = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({
      code: "PAYMENT_DECLINED",
      details: {
        reason: "insufficient_budget",
        meterId: meter.id,
        requiredBase: PRICE,
        availableBase: 200_000,
        topUp: {
          url: expect.stringMatching(new RegExp(`/v1/meters/${meter.id}/top-up$`)),
          method: "POST",
          minimumAmountMinor: 1,
          currency: "USD",
        },
      },
    });
    expect(await meterOf(meter.id)).toMatchObject({ reservedBase: 2 * PRICE });
    const topped = await call("POST", `/v1/meters/${meter.id}/top-up`, { key: m.testKey, body: { amountMinor: 2 } });
    expect(topped.status).toBe(200);
    expect(topped.body).toMatchObject({ budgetBase: 3_000_000, availableBase: 3_000_000 - 2 * PRICE });
    expect((await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE })).status).toBe(201);
    for (const body of [{ amountMinor: 0 }, { amountMinor: 1.5 }, {}, { amountMinor: 1, extra: 1 }]) {
      expect((await call("POST", `/v1/meters/${meter.id}/top-up`, { key: m.testKey, body })).status).toBe(400);
    }
    const postPaid = await openMeter();
    expect((await call("POST", `/v1/meters/${postPaid.id}/top-up`, { key: m.testKey, body: { amountMinor: 1 } })).status).toBe(409);
    expect((await reserve(postPaid.id, { quantity: 1, unitPriceMinor: PRICE })).status).toBe(409);
  });

  it("a reservation key returns the same hold on retry; concurrent reservations never exceed the budget", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 2 });
    const a = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "r1" });
    const b = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "r1" });
    expect([a.status, b.status]).toEqual([201, 200]);
    expect(b.body.id).toBe(a.body.id);
    expect((await reserve(meter.id, { quantity: 2, unitPriceMinor: PRICE, idempotencyKey: "r1" })).status).toBe(400);

    // 2,000,000 budget, 400,000 held: room for exactly 4 more of 400,000.
    const results = await Promise.all(Array.from({ length: 12 }, () => reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    expect(results.filter((r) => r.status === 402)).toHaveLength(8);
    expect(await meterOf(meter.id)).toMatchObject({ reservedBase: 5 * PRICE, availableBase: 0 });
  });

  it("without a body key, the request's Idempotency-Key names the hold: a retried reserve gets the same one", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 1 });
    const send = () =>
      call("POST", `/v1/meters/${meter.id}/reservations`, {
        key: m.testKey,
        headers: { "Idempotency-Key": "sdk_retry_1" },
        body: { quantity: 1, unitPriceMinor: PRICE },
      });
    const [a, b] = [await send(), await send()];
    // The same request again (same key and header): answered as the first time, the hold it created.
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body).toEqual({ ...a.body, created: true });
    expect(await meterOf(meter.id)).toMatchObject({ reservedBase: PRICE });
  });

  it("the tick releases expired reservations; an expired one can no longer be committed", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 1 });
    const held = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE });
    expect(new Date(held.body.expiresAt).getTime() - Date.now()).toBeGreaterThan(200_000); // METER_RESERVATION_TTL_SECONDS default 300
    await getDb().$executeRaw`UPDATE meter_reservations SET expires_at = now() - interval '1 second' WHERE id = ${held.body.id}`;
    expect((await finish(meter.id, held.body.id, "commit")).status).toBe(409);
    await tickUntil(async () => (await meterOf(meter.id)).reservedBase === 0);
    expect(await meterOf(meter.id)).toMatchObject({ reservedBase: 0, usedBase: 0, availableBase: 1_000_000 });
    const after = await finish(meter.id, held.body.id, "commit");
    expect(after.status).toBe(409);
    expect(after.body.error.details).toMatchObject({ status: "released", releaseReason: "expired" });
  });
});

describe("meters: settlement", () => {
  it("crossing the threshold settles one aggregate PaymentIntent for the whole minor units; the fraction carries", async () => {
    const payer = await createCustomer(m.testKey, { amount: 100, currency: "usd" });
    const meter = await openMeter({ customerId: payer.id, thresholdMinor: 1 });
    for (const key of ["a", "b"]) await usage(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: key });
    await tickUntilSettled(meter.id);
    expect(await paymentsOf(meter.id)).toEqual([]); // 0.8 cent: below the threshold
    await usage(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "c" });
    await usage(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "c" }); // a retry: counts once
    await Promise.all([tickUntilSettled(meter.id), tickUntilSettled(meter.id)]); // ticks at once still open one PaymentIntent
    const [pi, ...more] = await paymentsOf(meter.id);
    expect(more).toEqual([]);
    expect(pi).toMatchObject({
      amount: 1,
      amountCaptured: 1,
      currency: "USD",
      customerId: payer.id,
      paymentMethod: payer.id,
      meterId: meter.id,
      status: "settled",
    });
    expect(await meterOf(meter.id)).toMatchObject({ accruedBase: 200_000, usedBase: 1_200_000, billedMinor: 1, settlementCount: 1 });
    const types = (await allEvents(m.testKey)).filter((e) => e.data.object.id === pi.id).map((e) => e.type);
    expect(types).toEqual(["payment_intent.captured", "payment_intent.settled"]);
    const balance = await getDb().testWallet.findUniqueOrThrow({
      where: { customerId_currency: { customerId: payer.id, currency: "USD" } },
    });
    expect(balance.balance).toBe(99);
    await tickUntilSettled(meter.id);
    expect(await paymentsOf(meter.id)).toHaveLength(1);
  });

  it("closing a post-paid meter bills the rest (rounded half up) in one last PaymentIntent", async () => {
    const meter = await openMeter({ thresholdMinor: 100, paymentMethod: "pm_card_visa" });
    for (let i = 0; i < 3; i++)
      expect((await usage(meter.id, { quantity: 2, unitPriceMinor: PRICE, idempotencyKey: `u${i}` })).status).toBe(201);
    await tickUntilSettled(meter.id);
    expect(await paymentsOf(meter.id)).toEqual([]); // 2.4 cents: below the 100-cent threshold
    const closed = await call("POST", `/v1/meters/${meter.id}/close`, { key: m.testKey, body: {} });
    expect(closed.body).toMatchObject({ status: "closed", accruedBase: 2_400_000, closedAt: expect.any(String) });
    expect((await usage(meter.id, { quantity: 1, unitPriceMinor: PRICE, idempotencyKey: "late" })).status).toBe(409);
    await tickUntilSettled(meter.id);
    const pis = await paymentsOf(meter.id);
    expect(pis.map((p: { amount: number; status: string; meterPurpose: string }) => [p.amount, p.status, p.meterPurpose])).toEqual([
      [2, "settled", "settlement"],
    ]);
    expect(await meterOf(meter.id)).toMatchObject({ accruedBase: 0, billedMinor: 2, usedBase: 2_400_000 });
  });

  it("closing a prepaid meter releases held reservations and refunds the funds its usage did not draw; a closed meter takes nothing more", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 10, thresholdMinor: 1, paymentMethod: "pm_card_visa" });
    for (let i = 0; i < 3; i++) {
      const held = await reserve(meter.id, { quantity: 2, unitPriceMinor: PRICE });
      await finish(meter.id, held.body.id, "commit");
    }
    const open = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE });
    await tickUntilSettled(meter.id);
    // Charged once, up front: 2.4 cents of usage past a 1-cent threshold open no settlement.
    const [funding, ...others] = await paymentsOf(meter.id);
    expect(others).toEqual([]);
    expect(funding).toMatchObject({
      amount: 10,
      amountCaptured: 10,
      amountRefunded: 0,
      meterPurpose: "funding",
      paymentMethod: "pm_card_visa",
    });
    const closed = await call("POST", `/v1/meters/${meter.id}/close`, { key: m.testKey, body: {} });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({
      status: "closed",
      reservedBase: 0,
      usedBase: 2_400_000,
      accruedBase: 0,
      closedAt: expect.any(String),
    });
    expect((await finish(meter.id, open.body.id, "commit")).status).toBe(409);
    expect((await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE })).status).toBe(409);
    expect((await call("POST", `/v1/meters/${meter.id}/top-up`, { key: m.testKey, body: { amountMinor: 1 } })).status).toBe(409);
    expect((await call("POST", `/v1/meters/${meter.id}/close`, { key: m.testKey, body: {} })).status).toBe(409);
    await tickUntilSettled(meter.id);
    // 2.4 cents drawn, rounded half up to 2: 8 of the 10 go back, as one refund of the funding.
    expect(await meterOf(meter.id)).toMatchObject({ fundedMinor: 10, billedMinor: 2, refundedMinor: 8, settlementCount: 0 });
    const [after] = await paymentsOf(meter.id);
    expect(after).toMatchObject({ id: funding.id, amountRefunded: 8 });
    const refunds = (await call("GET", `/v1/refunds?paymentIntentId=${funding.id}`, { key: m.testKey })).body.data;
    expect(refunds.map((r: { amount: number; status: string }) => [r.amount, r.status])).toEqual([[8, "succeeded"]]);
    const types = (await allEvents(m.testKey)).filter((e) => e.data.object.id === funding.id).map((e) => e.type);
    expect(types).toEqual(["payment_intent.captured", "payment_intent.settled", "payment_intent.refunded"]);
  });

  it("a declined aggregate charge fails its PaymentIntent and makes the meter past_due", async () => {
    const meter = await openMeter({ thresholdMinor: 1, paymentMethod: "pm_card_chargeDeclined" });
    await usage(meter.id, { quantity: 5, unitPriceMinor: PRICE, idempotencyKey: "big" });
    await tickUntilSettled(meter.id);
    const [pi] = await paymentsOf(meter.id);
    expect(pi).toMatchObject({ amount: 2, status: "failed", failureReason: "generic_decline" });
    expect(await meterOf(meter.id)).toMatchObject({ status: "past_due", accruedBase: 0 });
    const types = (await allEvents(m.testKey)).filter((e) => e.data.object.id === pi.id).map((e) => e.type);
    expect(types).toEqual(["payment_intent.failed"]);
  });

  it("another merchant cannot reserve, commit, top up or close my meter", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 1 });
    const held = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE });
    const other = await createTestMerchant();
    for (const key of [other.testKey, m.liveKey]) {
      expect((await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE }, key)).status).toBe(404);
      expect((await finish(meter.id, held.body.id, "commit", key)).status).toBe(404);
      expect((await finish(meter.id, held.body.id, "release", key)).status).toBe(404);
      expect((await call("POST", `/v1/meters/${meter.id}/top-up`, { key, body: { amountMinor: 1 } })).status).toBe(404);
      expect((await call("POST", `/v1/meters/${meter.id}/close`, { key, body: {} })).status).toBe(404);
      expect(await paymentsOf(meter.id, key)).toEqual([]);
    }
    expect(await meterOf(meter.id)).toMatchObject({ status: "open", reservedBase: PRICE, budgetBase: 1_000_000 });
  });
});

describe("meters: races with close", () => {
  it("commits racing close: each reservation ends committed or released, and exactly what was committed is drawn", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 100, thresholdMinor: 1000, paymentMethod: "pm_card_visa" });
    const holds = await Promise.all(Array.from({ length: 20 }, () => reserve(meter.id, { quantity: 1, unitPriceMinor: 1_000_000 })));
    expect(holds.every((h) => h.status === 201)).toBe(true);
    const [close, ...commits] = await Promise.all([
      call("POST", `/v1/meters/${meter.id}/close`, { key: m.testKey, body: {} }),
      ...holds.map((h) => finish(meter.id, h.body.id, "commit")),
    ]);
    expect(close.status).toBe(200);
    expect(commits.every((c) => c.status === 200 || c.status === 409)).toBe(true); // never a 500 (no deadlock)
    const committed = commits.filter((c) => c.status === 200).length;
    const rows = await getDb().meterReservation.findMany({ where: { meterId: meter.id } });
    expect(rows.filter((r) => r.status === "committed")).toHaveLength(committed);
    expect(rows.filter((r) => r.status === "released" && r.releaseReason === "closed")).toHaveLength(20 - committed);
    await tickUntilSettled(meter.id);
    const after = await meterOf(meter.id);
    expect(after).toMatchObject({
      status: "closed",
      reservedBase: 0,
      usedBase: committed * 1_000_000,
      billedMinor: committed,
      fundedMinor: 100,
      refundedMinor: 100 - committed,
    });
    const payments = await paymentsOf(meter.id);
    expect(payments.map((p: { amountCaptured: number; amountRefunded: number }) => p.amountCaptured - p.amountRefunded)).toEqual([
      committed,
    ]);
  });

  it("top-ups racing close: each is refused (409) or charged, and the close settlement returns every unused cent, late ones included", async () => {
    const meter = await openMeter({ prepaid: true, budgetMinor: 1 });
    const [close, ...topUps] = await Promise.all([
      call("POST", `/v1/meters/${meter.id}/close`, { key: m.testKey, body: {} }),
      ...Array.from({ length: 10 }, () => call("POST", `/v1/meters/${meter.id}/top-up`, { key: m.testKey, body: { amountMinor: 1 } })),
    ]);
    expect(close.status).toBe(200);
    expect(topUps.every((t) => t.status === 200 || t.status === 409)).toBe(true);
    const landed = topUps.filter((t) => t.status === 200).length;
    await tickUntilSettled(meter.id);
    // No usage: every funding that was charged, before the close or after it, is refunded in full.
    expect(await meterOf(meter.id)).toMatchObject({ status: "closed", fundedMinor: 1 + landed, refundedMinor: 1 + landed, billedMinor: 0 });
    const payments = await paymentsOf(meter.id);
    expect(payments.filter((p: { amountCaptured: number }) => p.amountCaptured > 0)).toHaveLength(1 + landed);
    expect(payments.every((p: { amountCaptured: number; amountRefunded: number }) => p.amountRefunded === p.amountCaptured)).toBe(true);
  });
});

describe("meters: METER_RESERVATION_TTL_SECONDS", () => {
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it("a reservation nobody finishes is released by the tick once the setting's seconds have passed", async () => {
    server = await startTestServer({ METER_RESERVATION_TTL_SECONDS: "1" });
    const base = server.url;
    const payer = await createCustomer(m.testKey, undefined, base);
    const meter = (
      await call("POST", "/v1/meters", {
        key: m.testKey,
        base,
        body: { customerId: payer.id, currency: "usd", thresholdMinor: 1, prepaid: true, budgetMinor: 1, paymentMethod: "pm_card_visa" },
      })
    ).body;
    const held = await call("POST", `/v1/meters/${meter.id}/reservations`, {
      key: m.testKey,
      base,
      body: { quantity: 1, unitPriceMinor: PRICE },
    });
    expect(new Date(held.body.expiresAt).getTime() - new Date(held.body.createdAt).getTime()).toBe(1000);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await tickUntil(async () => (await call("GET", `/v1/meters/${meter.id}`, { key: m.testKey, base })).body.reservedBase === 0, base);
    const late = await call("POST", `/v1/meters/${meter.id}/reservations/${held.body.id}/commit`, { key: m.testKey, base, body: {} });
    expect(late.status).toBe(409);
    expect(late.body.error.details).toMatchObject({ status: "released", releaseReason: "expired" });
  });
});
