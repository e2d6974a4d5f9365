// Prepaid meters are FUNDED up front (docs/meters.md): creating one and topping it up charge the budget
// at once in funding PaymentIntents, prepaid usage draws on those funds and is never charged again, and
// close refunds what was not drawn. An independent suite that checks the money from every side: the
// meter, its PaymentIntents, refunds, events, the payer's wallet, the merchant's balance and the ledger.
import { beforeEach, describe, expect, it } from "vitest";
import { getDb, transaction } from "../../lib/db";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import { createApiKey } from "../../lib/merchants/create-api-key";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { allEvents, createCustomer, tick } from "../helpers/payments";

const PRICE = 400_000; // 0.4 of a cent in base units
const UNIT = 1_000_000; // base units per minor unit (the default)

let m: TestMerchant;
let customerId: string;
// A fresh merchant per test: its own rate-limit bucket, balance and ledger, so every sum below is exact.
beforeEach(async () => {
  m = await createTestMerchant();
  customerId = (await createCustomer(m.testKey, { amount: 10_000, currency: "usd" })).id;
});

type Json = Record<string, any>;

const post = (path: string, body: unknown, headers: Record<string, string> = {}, key = m.testKey) =>
  call("POST", path, { key, body, headers });
const get = async (path: string, key = m.testKey) => (await call("GET", path, { key })).body;

const createMeter = (body: Json, headers: Record<string, string> = {}, key = m.testKey) =>
  post("/v1/meters", { customerId, currency: "usd", thresholdMinor: 100, ...body }, headers, key);

async function openPrepaid(budgetMinor: number, extra: Json = {}): Promise<Json> {
  const res = await createMeter({ prepaid: true, budgetMinor, paymentMethod: "pm_card_visa", ...extra });
  if (res.status !== 201) throw new Error(`open prepaid meter: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const meterOf = (id: string): Promise<Json> => get(`/v1/meters/${id}`);
const paymentsOf = async (meterId: string): Promise<Json[]> => (await get(`/v1/payment_intents?meterId=${meterId}&limit=100`)).data;
const refundsOf = async (paymentIntentId: string): Promise<Json[]> =>
  (await get(`/v1/refunds?paymentIntentId=${paymentIntentId}&limit=100`)).data;
const topUp = (meterId: string, body: Json, headers: Record<string, string> = {}, key = m.testKey) =>
  post(`/v1/meters/${meterId}/top-up`, body, headers, key);
const reserve = (meterId: string, body: Json, key = m.testKey) => post(`/v1/meters/${meterId}/reservations`, body, {}, key);
const finish = (meterId: string, rid: string, action: "commit" | "release", key = m.testKey) =>
  post(`/v1/meters/${meterId}/reservations/${rid}/${action}`, {}, {}, key);
const close = (meterId: string) => post(`/v1/meters/${meterId}/close`, {});

/** Reserves and commits one call of quantity x unitPriceMinor; fails the test unless both succeed. */
async function spend(meterId: string, quantity: number, unitPriceMinor = PRICE): Promise<string> {
  const held = await reserve(meterId, { quantity, unitPriceMinor });
  expect(held.status, JSON.stringify(held.body)).toBe(201);
  const committed = await finish(meterId, held.body.id, "commit");
  expect(committed.status, JSON.stringify(committed.body)).toBe(200);
  return held.body.id;
}

/** Ticks until the meter reaches the state (at most `tries` ticks) and returns it as it is then. */
async function tickMeter(id: string, done: (meter: Json) => boolean, tries = 30): Promise<Json> {
  for (let i = 0; i < tries; i++) {
    await tick();
    const meter = await meterOf(id);
    if (done(meter)) return meter;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return meterOf(id);
}

async function walletBalance(customer: string): Promise<number> {
  const row = await getDb().testWallet.findUniqueOrThrow({ where: { customerId_currency: { customerId: customer, currency: "USD" } } });
  return row.balance;
}

const eventTypesOf = async (objectId: string) =>
  (await allEvents(m.testKey)).filter((e) => e.data.object.id === objectId).map((e) => e.type);

/**
 * The merchant holds exactly `net` minor units: its balance (pending + payable), its PaymentIntents'
 * captures minus refunds, and the ledger audit all agree.
 */
async function expectMerchantHolds(net: number): Promise<void> {
  const balance = await get("/v1/balance");
  const total = [...balance.pending, ...balance.payable]
    .filter((b: Json) => b.currency === "USD")
    .reduce((s: number, b: Json) => s + b.amount, 0);
  const pis: Json[] = (await get("/v1/payment_intents?limit=100")).data;
  const captured = pis.reduce((s, p) => s + p.amountCaptured, 0);
  const refunded = pis.reduce((s, p) => s + p.amountRefunded, 0);
  expect({ balance: total, capturesMinusRefunds: captured - refunded }).toEqual({ balance: net, capturesMinusRefunds: net });
  expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
}

describe("funding at creation", () => {
  it("a prepaid meter charges its budget during the request: one captured funding PaymentIntent, its event, the merchant's balance", async () => {
    const created = await createMeter({ prepaid: true, budgetMinor: 100, paymentMethod: "pm_card_visa" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: "open",
      prepaid: true,
      fundedMinor: 100,
      refundedMinor: 0,
      budgetBase: 100 * UNIT,
      availableBase: 100 * UNIT,
      usedBase: 0,
      accruedBase: 0,
      billedMinor: 0,
    });
    expect(await meterOf(created.body.id)).toEqual(created.body);

    const pis = await paymentsOf(created.body.id);
    expect(pis).toHaveLength(1);
    expect(pis[0]).toMatchObject({
      amount: 100,
      amountCaptured: 100,
      amountRefunded: 0,
      currency: "USD",
      customerId,
      paymentMethod: "pm_card_visa",
      meterId: created.body.id,
      meterPurpose: "funding",
      status: expect.stringMatching(/^(captured|settled)$/), // the shared server's tick may settle it at once
    });
    expect((await eventTypesOf(pis[0].id)).filter((t) => t === "payment_intent.captured")).toHaveLength(1);
    await expectMerchantHolds(100);
  });

  it("budgetBase follows the meter's own baseUnitsPerMinor", async () => {
    const meter = await openPrepaid(7, { baseUnitsPerMinor: 1000 });
    expect(meter).toMatchObject({ fundedMinor: 7, budgetBase: 7000, availableBase: 7000 });
    const topped = await topUp(meter.id, { amountMinor: 3 });
    expect(topped.status).toBe(200);
    expect(topped.body).toMatchObject({ fundedMinor: 10, budgetBase: 10_000, availableBase: 10_000 });
    expect((await paymentsOf(meter.id)).map((p) => p.amount).sort((a, b) => a - b)).toEqual([3, 7]);
  });

  it("without a payment method the customer's wallet pays; a wallet that cannot cover the budget is declined (402)", async () => {
    const meter = await openPrepaid(250, { paymentMethod: undefined });
    expect(meter).toMatchObject({ paymentMethod: customerId, fundedMinor: 250, budgetBase: 250 * UNIT });
    expect(await walletBalance(customerId)).toBe(10_000 - 250);
    expect((await paymentsOf(meter.id))[0]).toMatchObject({ amountCaptured: 250, paymentMethod: customerId, meterPurpose: "funding" });

    const poor = (await createCustomer(m.testKey, { amount: 50, currency: "usd" })).id;
    const refused = await createMeter({ customerId: poor, prepaid: true, budgetMinor: 100 });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({
      code: "PAYMENT_DECLINED",
      details: { meterId: expect.stringMatching(/^mtr_/), paymentIntentId: expect.stringMatching(/^pi_/) },
    });
    expect(await walletBalance(poor)).toBe(50);
    expect(await meterOf(refused.body.error.details.meterId)).toMatchObject({ status: "open", fundedMinor: 0, budgetBase: 0 });
    await expectMerchantHolds(250);
  });

  it("a declined card: 402 naming the meter and the failed PaymentIntent; the meter is open with no budget; a replay charges nothing more; a top-up with another card funds it", async () => {
    const headers = { "Idempotency-Key": `declined-${customerId}` };
    const body = { prepaid: true, budgetMinor: 50, paymentMethod: "pm_card_chargeDeclined" };
    const declined = await createMeter(body, headers);
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({
      code: "PAYMENT_DECLINED",
      details: { meterId: expect.stringMatching(/^mtr_/), paymentIntentId: expect.stringMatching(/^pi_/) },
    });
    const { meterId, paymentIntentId } = declined.body.error.details;
    expect(await meterOf(meterId)).toMatchObject({
      status: "open",
      prepaid: true,
      fundedMinor: 0,
      budgetBase: 0,
      availableBase: 0,
      refundedMinor: 0,
    });
    expect(await get(`/v1/payment_intents/${paymentIntentId}`)).toMatchObject({
      status: "failed",
      amount: 50,
      amountCaptured: 0,
      meterId,
      meterPurpose: "funding",
    });

    const replay = await createMeter(body, headers);
    expect(replay.status).toBe(402);
    expect(replay.body.error.details).toMatchObject({ meterId, paymentIntentId });
    expect(await paymentsOf(meterId)).toHaveLength(1);
    expect((await get(`/v1/meters?customerId=${customerId}`)).data).toHaveLength(1);

    const unfunded = await reserve(meterId, { quantity: 1, unitPriceMinor: PRICE });
    expect(unfunded.status).toBe(402);
    expect(unfunded.body.error.details.reason).toBe("insufficient_budget");
    await expectMerchantHolds(0);

    const funded = await topUp(meterId, { amountMinor: 5, paymentMethod: "pm_card_visa" });
    expect(funded.status).toBe(200);
    expect(funded.body).toMatchObject({ fundedMinor: 5, budgetBase: 5 * UNIT, availableBase: 5 * UNIT });
    expect((await reserve(meterId, { quantity: 1, unitPriceMinor: PRICE })).status).toBe(201);
    await expectMerchantHolds(5);
  });

  it("one Idempotency-Key creates one meter and charges once, sequentially (201, then the same 201 replayed) and concurrently", async () => {
    const body = { prepaid: true, budgetMinor: 40, paymentMethod: "pm_card_visa" };
    const headers = { "Idempotency-Key": `create-${customerId}` };
    const first = await createMeter(body, headers);
    const again = await createMeter(body, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(again.body.fundedMinor).toBe(40);

    const racing = await Promise.all(
      Array.from({ length: 8 }, () => createMeter({ ...body, budgetMinor: 30 }, { "Idempotency-Key": `race-${customerId}` })),
    );
    expect(
      racing.every((r) => r.status === 201 || r.status === 200 || r.status === 409),
      JSON.stringify(racing.map((r) => r.status)),
    ).toBe(true);
    expect(racing.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") !== "true")).toHaveLength(1);
    const answered = racing.filter((r) => r.status !== 409);
    expect(new Set(answered.map((r) => r.body.id)).size).toBe(1);
    for (const r of answered) expect(r.body.fundedMinor).toBe(30);

    const meters: Json[] = (await get(`/v1/meters?customerId=${customerId}`)).data;
    expect(meters.map((x) => x.fundedMinor).sort((a, b) => a - b)).toEqual([30, 40]);
    for (const meter of meters) expect(await paymentsOf(meter.id)).toHaveLength(1);
    await expectMerchantHolds(70);
  });
});

describe("another request under a used Idempotency-Key", () => {
  it("create: other parameters are 400 and neither create nor charge anything", async () => {
    const body = { prepaid: true, budgetMinor: 40, paymentMethod: "pm_card_visa" };
    const headers = { "Idempotency-Key": `other-${customerId}` };
    expect((await createMeter(body, headers)).status).toBe(201);
    for (const other of [
      { ...body, paymentMethod: "pm_card_mastercard" },
      { ...body, thresholdMinor: 5 },
      { ...body, prepaid: false, budgetMinor: undefined },
    ]) {
      const res = await createMeter(other, headers);
      expect(res.status, JSON.stringify(other)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
    expect((await get(`/v1/meters?customerId=${customerId}`)).data).toHaveLength(1);
    await expectMerchantHolds(40);
  });
});

describe("top-up charges now", () => {
  it("raises the budget by a new captured funding PaymentIntent, with the top-up's own payment method when given", async () => {
    const meter = await openPrepaid(10);
    await spend(meter.id, 5); // 2 cents used
    const topped = await topUp(meter.id, { amountMinor: 20 });
    expect(topped.status).toBe(200);
    expect(topped.body).toMatchObject({
      id: meter.id,
      fundedMinor: 30,
      budgetBase: 30 * UNIT,
      usedBase: 5 * PRICE,
      availableBase: 30 * UNIT - 5 * PRICE,
    });
    const other = await topUp(meter.id, { amountMinor: 4, paymentMethod: "pm_card_mastercard" });
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ fundedMinor: 34, budgetBase: 34 * UNIT });

    const pis = await paymentsOf(meter.id);
    expect(
      pis.map((p) => [p.amount, p.amountCaptured, p.meterPurpose, p.paymentMethod]).sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      [4, 4, "funding", "pm_card_mastercard"],
      [10, 10, "funding", "pm_card_visa"],
      [20, 20, "funding", "pm_card_visa"],
    ]);
    for (const pi of pis) expect(await eventTypesOf(pi.id)).toContain("payment_intent.captured");
    await expectMerchantHolds(34);
  });

  it("a declined top-up: 402 naming the meter and the failed PaymentIntent; budget and funds unchanged, the meter keeps working", async () => {
    const meter = await openPrepaid(10);
    const headers = { "Idempotency-Key": `declined-topup-${meter.id}` };
    const declined = await topUp(meter.id, { amountMinor: 15, paymentMethod: "pm_card_chargeDeclined" }, headers);
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({
      code: "PAYMENT_DECLINED",
      details: { reason: "generic_decline", meterId: meter.id, paymentIntentId: expect.stringMatching(/^pi_/) },
    });
    const replay = await topUp(meter.id, { amountMinor: 15, paymentMethod: "pm_card_chargeDeclined" }, headers);
    expect(replay.status).toBe(402);
    expect(replay.body.error.details.paymentIntentId).toBe(declined.body.error.details.paymentIntentId);
    expect(await paymentsOf(meter.id)).toHaveLength(2); // the funding at creation and the one declined top-up
    expect(await get(`/v1/payment_intents/${declined.body.error.details.paymentIntentId}`)).toMatchObject({
      status: "failed",
      amount: 15,
      amountCaptured: 0,
      meterId: meter.id,
      meterPurpose: "funding",
    });
    expect(await meterOf(meter.id)).toMatchObject({ fundedMinor: 10, budgetBase: 10 * UNIT, availableBase: 10 * UNIT });
    await spend(meter.id, 1);
    await expectMerchantHolds(10);
  });

  it("one Idempotency-Key funds once: sequential replays and 10 concurrent copies; another body under the key is 400", async () => {
    const meter = await openPrepaid(10);
    const once = { "Idempotency-Key": `topup-a-${meter.id}` };
    const first = await topUp(meter.id, { amountMinor: 5 }, once);
    const second = await topUp(meter.id, { amountMinor: 5 }, once);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([first.body.fundedMinor, second.body.fundedMinor]).toEqual([15, 15]);
    const mismatch = await topUp(meter.id, { amountMinor: 6 }, once);
    expect(mismatch.status).toBe(400);
    expect((await meterOf(meter.id)).fundedMinor).toBe(15);

    const copies = await Promise.all(
      Array.from({ length: 10 }, () => topUp(meter.id, { amountMinor: 7 }, { "Idempotency-Key": `topup-b-${meter.id}` })),
    );
    expect(
      copies.every((r) => r.status === 200 || r.status === 409),
      JSON.stringify(copies.map((r) => r.status)),
    ).toBe(true);
    const answered = copies.filter((r) => r.status === 200);
    expect(answered.length).toBeGreaterThan(0);
    for (const r of answered) expect(r.body).toMatchObject({ fundedMinor: 22, budgetBase: 22 * UNIT });
    // Once the first copy finished, the key answers every later retry with that same result.
    const late = await topUp(meter.id, { amountMinor: 7 }, { "Idempotency-Key": `topup-b-${meter.id}` });
    expect(late.status).toBe(200);
    expect(late.body.fundedMinor).toBe(22);
    expect((await topUp(meter.id, { amountMinor: 8 }, { "Idempotency-Key": `topup-b-${meter.id}` })).status).toBe(400);

    expect(await meterOf(meter.id)).toMatchObject({ fundedMinor: 22, budgetBase: 22 * UNIT });
    expect((await paymentsOf(meter.id)).map((p) => p.amount).sort((a, b) => a - b)).toEqual([5, 7, 10]);
    await expectMerchantHolds(22);
  });

  it("refused without a charge: a closed meter (409), a post-paid meter (409), bad amounts (400)", async () => {
    const postPaid = await createMeter({ prepaid: false });
    expect(postPaid.status).toBe(201);
    const onPostPaid = await topUp(postPaid.body.id, { amountMinor: 5 });
    expect(onPostPaid.status).toBe(409);
    expect(await paymentsOf(postPaid.body.id)).toEqual([]);

    const meter = await openPrepaid(10);
    const other = await createTestMerchant();
    for (const key of [other.testKey, m.liveKey]) expect((await topUp(meter.id, { amountMinor: 5 }, {}, key)).status).toBe(404);
    for (const body of [
      { amountMinor: 0 },
      { amountMinor: -5 },
      { amountMinor: 2.5 },
      {},
      { amountMinor: 100_000_000 },
      { amountMinor: 1, paymentMethod: "pm_nope" },
    ]) {
      expect((await topUp(meter.id, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await close(meter.id)).status).toBe(200);
    const onClosed = await topUp(meter.id, { amountMinor: 5 });
    expect(onClosed.status).toBe(409);
    expect((await paymentsOf(meter.id)).map((p) => p.amount)).toEqual([10]);
    expect((await meterOf(meter.id)).fundedMinor).toBe(10);
  });
});

describe("a failure after the funding charge loses no money", () => {
  // x-test-fault: after-rail-charge fails the request right after the rail took the money, before the
  // service recorded it (its transaction rolls back); the client retries with the same key.
  it("create and top-up that fail with a 500 after the rail charged: the retry with the same key funds once and the payer pays once", async () => {
    const createHeaders = { "Idempotency-Key": `crash-create-${customerId}` };
    const body = { prepaid: true, budgetMinor: 30 }; // the customer's wallet (10,000) pays
    const failed = await createMeter(body, { ...createHeaders, "x-test-fault": "after-rail-charge" });
    expect(failed.status).toBe(500);
    expect(await walletBalance(customerId)).toBe(10_000 - 30); // the rail took it
    const created = await createMeter(body, createHeaders);
    expect([200, 201]).toContain(created.status);
    expect(created.body).toMatchObject({ fundedMinor: 30, budgetBase: 30 * UNIT });
    expect((await get(`/v1/meters?customerId=${customerId}`)).data).toHaveLength(1);
    expect(await walletBalance(customerId)).toBe(10_000 - 30);

    const meterId = created.body.id;
    const topUpHeaders = { "Idempotency-Key": `crash-topup-${meterId}` };
    expect((await topUp(meterId, { amountMinor: 12 }, { ...topUpHeaders, "x-test-fault": "after-rail-charge" })).status).toBe(500);
    const retried = await topUp(meterId, { amountMinor: 12 }, topUpHeaders);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ fundedMinor: 42, budgetBase: 42 * UNIT });
    expect(await walletBalance(customerId)).toBe(10_000 - 42);
    expect(
      (await paymentsOf(meterId))
        .filter((p) => p.amountCaptured > 0)
        .map((p) => p.amount)
        .sort((a, b) => a - b),
    ).toEqual([12, 30]);
    await expectMerchantHolds(42);
  });
});

describe("prepaid usage draws on the funds", () => {
  it("crossing thresholdMinor opens no settlement PaymentIntent: usage lands in usedBase only, nothing is billed before close", async () => {
    const meter = await openPrepaid(10, { thresholdMinor: 1 });
    for (let i = 0; i < 5; i++) await spend(meter.id, 1); // 2 cents, twice the threshold
    for (let i = 0; i < 3; i++) await tick();
    expect(await meterOf(meter.id)).toMatchObject({
      usedBase: 5 * PRICE,
      accruedBase: 0,
      reservedBase: 0,
      billedMinor: 0,
      settlementCount: 0,
      fundedMinor: 10,
      refundedMinor: 0,
      availableBase: 10 * UNIT - 5 * PRICE,
    });
    const pis = await paymentsOf(meter.id);
    expect(pis.map((p) => [p.amount, p.meterPurpose, p.amountRefunded])).toEqual([[10, "funding", 0]]); // an open meter's funds are never refunded
    await expectMerchantHolds(10);
  });
});

describe("close refunds what was not drawn", () => {
  it("budget 100, three committed 0.4-cent calls and one held: close releases the hold, the tick draws 1 and refunds 99 to the wallet", async () => {
    const meter = await openPrepaid(100, { paymentMethod: undefined }); // the customer's wallet pays
    expect(await walletBalance(customerId)).toBe(9_900);
    for (let i = 0; i < 3; i++) await spend(meter.id, 1);
    const held = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE });
    expect(held.status).toBe(201);

    const closed = await close(meter.id);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: "closed", reservedBase: 0, usedBase: 3 * PRICE });
    const hold = await getDb().meterReservation.findUniqueOrThrow({ where: { id: held.body.id } });
    expect([hold.status, hold.releaseReason]).toEqual(["released", "closed"]);

    const after = await tickMeter(meter.id, (x) => x.refundedMinor > 0);
    expect(after).toMatchObject({
      status: "closed",
      fundedMinor: 100,
      refundedMinor: 99,
      billedMinor: 1,
      usedBase: 3 * PRICE,
      accruedBase: 0,
      reservedBase: 0,
    });
    const [funding, ...others] = await paymentsOf(meter.id);
    expect(others).toEqual([]); // the draw is not charged again
    expect(funding).toMatchObject({ meterPurpose: "funding", amountCaptured: 100, amountRefunded: 99 });
    const refunds = await refundsOf(funding.id);
    expect(refunds.map((r) => [r.amount, r.status])).toEqual([[99, "succeeded"]]);
    expect((await eventTypesOf(funding.id)).filter((t) => t === "payment_intent.refunded")).toHaveLength(1);
    expect(await walletBalance(customerId)).toBe(9_999);
    await expectMerchantHolds(1);

    for (let i = 0; i < 3; i++) await tick(); // later ticks refund nothing more
    expect(await refundsOf(funding.id)).toHaveLength(1);
    expect(await meterOf(meter.id)).toMatchObject({ refundedMinor: 99, billedMinor: 1 });
  });

  it("refunds go across the funding PaymentIntents newest first; a declined top-up is never refunded", async () => {
    const meter = await openPrepaid(10);
    expect((await topUp(meter.id, { amountMinor: 20 })).status).toBe(200);
    expect((await topUp(meter.id, { amountMinor: 15, paymentMethod: "pm_card_chargeDeclined" })).status).toBe(402);
    expect((await topUp(meter.id, { amountMinor: 30 })).status).toBe(200);
    await spend(meter.id, 63); // 25.2 cents: draws 25 of 60, refunds 35 = 30 (newest) + 5 of the 20
    expect((await close(meter.id)).status).toBe(200);

    // One funding refunded per transaction (and tick): the newest first, then the rest of what is owed.
    const after = await tickMeter(meter.id, (x) => x.refundedMinor >= 35);
    expect(after).toMatchObject({ status: "closed", fundedMinor: 60, refundedMinor: 35, billedMinor: 25 });
    const pis = await paymentsOf(meter.id);
    const byAmount = (amount: number) => pis.find((p) => p.amount === amount)!;
    expect(pis.map((p) => p.amount).sort((a, b) => a - b)).toEqual([10, 15, 20, 30]);
    expect(byAmount(30)).toMatchObject({ status: "refunded", amountRefunded: 30 });
    expect(byAmount(20)).toMatchObject({ amountRefunded: 5 });
    expect(byAmount(10)).toMatchObject({ amountRefunded: 0 });
    expect(byAmount(15)).toMatchObject({ status: "failed", amountCaptured: 0, amountRefunded: 0 });
    expect((await refundsOf(byAmount(30).id)).map((r) => r.amount)).toEqual([30]);
    expect((await refundsOf(byAmount(20).id)).map((r) => r.amount)).toEqual([5]);
    expect(await refundsOf(byAmount(10).id)).toEqual([]);
    expect(await refundsOf(byAmount(15).id)).toEqual([]);
    const refundedEvents = (await allEvents(m.testKey)).filter((e) => e.type === "payment_intent.refunded").map((e) => e.data.object.id);
    expect(refundedEvents.sort()).toEqual([byAmount(20).id, byAmount(30).id].sort());
    await expectMerchantHolds(25);
  });

  it("the draw rounds half up and never exceeds the funds; an unused budget is refunded whole", async () => {
    const full = await openPrepaid(3);
    await spend(full.id, 1, 2_500_000); // 2.5 cents -> 3
    expect((await close(full.id)).status).toBe(200);
    const drawn = await tickMeter(full.id, (x) => x.billedMinor > 0 || x.refundedMinor > 0);
    expect(drawn).toMatchObject({ fundedMinor: 3, billedMinor: 3, refundedMinor: 0 });

    const below = await openPrepaid(3);
    await spend(below.id, 1, 2_499_999); // just under 2.5 cents -> 2
    expect((await close(below.id)).status).toBe(200);
    expect(await tickMeter(below.id, (x) => x.refundedMinor > 0)).toMatchObject({ billedMinor: 2, refundedMinor: 1 });

    const unused = await openPrepaid(7);
    expect((await close(unused.id)).status).toBe(200);
    expect(await tickMeter(unused.id, (x) => x.refundedMinor > 0)).toMatchObject({ fundedMinor: 7, billedMinor: 0, refundedMinor: 7 });
    expect((await paymentsOf(unused.id))[0]).toMatchObject({ status: "refunded", amountRefunded: 7 });

    expect(await refundsOf((await paymentsOf(full.id))[0].id)).toEqual([]);
    await expectMerchantHolds(3 + 2);
  });

  it("a meter whose funding was declined closes with nothing to refund", async () => {
    const declined = await createMeter({ prepaid: true, budgetMinor: 20, paymentMethod: "pm_card_chargeDeclined" });
    expect(declined.status).toBe(402);
    const { meterId, paymentIntentId } = declined.body.error.details;
    expect((await close(meterId)).status).toBe(200);
    for (let i = 0; i < 3; i++) await tick();
    expect(await meterOf(meterId)).toMatchObject({ status: "closed", fundedMinor: 0, refundedMinor: 0, billedMinor: 0 });
    expect(await refundsOf(paymentIntentId)).toEqual([]);
    await expectMerchantHolds(0);
  });

  it("a funding PaymentIntent cannot be refunded by hand while its meter is open (409 meter_funding)", async () => {
    const meter = await openPrepaid(20);
    const [funding] = await paymentsOf(meter.id);
    for (const body of [{ paymentIntentId: funding.id, amount: 5 }, { paymentIntentId: funding.id }]) {
      const res = await post("/v1/refunds", body);
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: "CONFLICT", details: { reason: "meter_funding" } });
    }
    expect(await refundsOf(funding.id)).toEqual([]);
    expect(await meterOf(meter.id)).toMatchObject({ fundedMinor: 20, budgetBase: 20 * UNIT, refundedMinor: 0 });
    await expectMerchantHolds(20);

    // Once the close settlement has returned the unused funds, the merchant may refund the drawn rest by hand.
    await spend(meter.id, 10); // 4 cents drawn
    expect((await close(meter.id)).status).toBe(200);
    expect(await tickMeter(meter.id, (x) => x.refundedMinor > 0)).toMatchObject({ refundedMinor: 16, billedMinor: 4 });
    const byHand = await post("/v1/refunds", { paymentIntentId: funding.id });
    expect(byHand.status).toBe(201);
    expect(byHand.body.amount).toBe(4);
    await expectMerchantHolds(0);
  });
});

describe("post-paid meters are unchanged", () => {
  it("creating one charges nothing; crossing its threshold opens a settlement PaymentIntent; close refunds nothing", async () => {
    const created = await createMeter({ prepaid: false, thresholdMinor: 1, paymentMethod: "pm_card_visa" });
    expect(created.status).toBe(201);
    const meter = created.body;
    expect(meter).toMatchObject({ prepaid: false, budgetBase: null, billedMinor: 0, fundedMinor: null, refundedMinor: null });
    expect(await paymentsOf(meter.id)).toEqual([]);
    const usage = await post(`/v1/meters/${meter.id}/usage`, { quantity: 5, unitPriceMinor: PRICE, idempotencyKey: "u1" });
    expect(usage.status).toBe(201);
    const settled = await tickMeter(meter.id, (x) => x.billedMinor > 0);
    expect(settled).toMatchObject({ billedMinor: 2, accruedBase: 0, usedBase: 5 * PRICE, settlementCount: 1 });
    const [pi, ...more] = await paymentsOf(meter.id);
    expect(more).toEqual([]);
    expect(pi).toMatchObject({ amount: 2, meterId: meter.id, meterPurpose: "settlement" });

    expect((await close(meter.id)).status).toBe(200);
    for (let i = 0; i < 3; i++) await tick();
    expect(await refundsOf(pi.id)).toEqual([]);
    expect((await meterOf(meter.id)).billedMinor).toBe(2);
    await expectMerchantHolds(2);
  });
});

describe("money is conserved under concurrency", () => {
  /** Extra API keys of the merchant, so hundreds of requests stay within each key's rate limit. */
  async function workerKeys(n: number): Promise<string[]> {
    const keys: string[] = [];
    for (let i = 0; i < n; i++) keys.push((await transaction((tx) => createApiKey(tx, m.merchantId, false, `worker ${i}`))).secret);
    return keys;
  }

  it("a budget of exactly 200 calls: 200 concurrent reserve+commit land, 20 more are refused (402); close refunds nothing; ledger and balance agree", async () => {
    const CALLS = 200;
    const EXTRA = 20;
    const meter = await openPrepaid((CALLS * PRICE) / UNIT, { thresholdMinor: 1 }); // 80 cents
    expect(meter.budgetBase).toBe(CALLS * PRICE);
    const keys = await workerKeys(5);

    const outcomes = await Promise.all(
      Array.from({ length: CALLS + EXTRA }, async (_, i) => {
        const key = keys[i % keys.length];
        const held = await reserve(meter.id, { quantity: 1, unitPriceMinor: PRICE }, key);
        if (held.status !== 201) return { reserve: held.status, reason: held.body?.error?.details?.reason };
        const committed = await finish(meter.id, held.body.id, "commit", key);
        return { reserve: 201, commit: committed.status };
      }),
    );
    const landed = outcomes.filter((o) => o.reserve === 201);
    const refused = outcomes.filter((o) => o.reserve !== 201);
    expect(landed).toHaveLength(CALLS);
    expect(landed.every((o) => o.commit === 200)).toBe(true);
    expect(refused).toHaveLength(EXTRA);
    expect(
      refused.every((o) => o.reserve === 402 && o.reason === "insufficient_budget"),
      JSON.stringify(refused.slice(0, 3)),
    ).toBe(true);
    expect(await meterOf(meter.id)).toMatchObject({
      usedBase: CALLS * PRICE,
      reservedBase: 0,
      availableBase: 0,
      accruedBase: 0,
      billedMinor: 0,
    });

    expect((await close(meter.id)).status).toBe(200);
    const after = await tickMeter(meter.id, (x) => x.billedMinor > 0 || x.refundedMinor > 0);
    expect(after).toMatchObject({ status: "closed", fundedMinor: 80, billedMinor: 80, refundedMinor: 0 });
    const pis = await paymentsOf(meter.id);
    expect(pis.map((p) => [p.amount, p.meterPurpose, p.amountRefunded])).toEqual([[80, "funding", 0]]);
    expect(await refundsOf(pis[0].id)).toEqual([]);
    await expectMerchantHolds(80);
  });

  it("concurrent top-ups (distinct keys) racing reservations: every top-up funds once, usage never exceeds the funds, close returns the rest", async () => {
    const meter = await openPrepaid(1);
    const keys = await workerKeys(2);
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => topUp(meter.id, { amountMinor: 3 }, { "Idempotency-Key": `t${i}-${meter.id}` }, keys[0])),
      ...Array.from({ length: 40 }, async () => {
        const held = await reserve(meter.id, { quantity: 1, unitPriceMinor: UNIT }, keys[1]);
        if (held.status === 201) return finish(meter.id, held.body.id, "commit", keys[1]);
        return held;
      }),
    ]);
    const topUps = results.slice(0, 10);
    const calls = results.slice(10);
    expect(topUps.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(calls.every((r) => r.status === 200 || (r.status === 402 && r.body.error.details.reason === "insufficient_budget"))).toBe(true);
    const committed = calls.filter((r) => r.status === 200).length;
    expect(committed).toBeGreaterThan(0);
    expect(committed).toBeLessThanOrEqual(31);
    expect(await meterOf(meter.id)).toMatchObject({ fundedMinor: 31, budgetBase: 31 * UNIT, usedBase: committed * UNIT, reservedBase: 0 });
    expect((await paymentsOf(meter.id)).reduce((s, p) => s + p.amountCaptured, 0)).toBe(31);

    expect((await close(meter.id)).status).toBe(200);
    const after = await tickMeter(meter.id, (x) => x.billedMinor + x.refundedMinor === 31);
    expect(after).toMatchObject({ billedMinor: committed, refundedMinor: 31 - committed });
    const refunded = (await paymentsOf(meter.id)).reduce((s, p) => s + p.amountRefunded, 0);
    expect(refunded).toBe(31 - committed);
    await expectMerchantHolds(committed);
  });

  it("top-ups racing close: each is funded before the close (and refunded by it) or refused and never charged; the payer gets everything back", async () => {
    const meter = await openPrepaid(5, { paymentMethod: undefined }); // the customer's wallet pays
    const [closed, ...topUps] = await Promise.all([
      close(meter.id),
      ...Array.from({ length: 10 }, (_, i) => topUp(meter.id, { amountMinor: 2 }, { "Idempotency-Key": `race-close-${i}-${meter.id}` })),
    ]);
    expect(closed.status).toBe(200);
    expect(
      topUps.every((t) => t.status === 200 || t.status === 409),
      JSON.stringify(topUps.map((t) => t.status)),
    ).toBe(true);
    const landed = topUps.filter((t) => t.status === 200).length;
    const funded = 5 + 2 * landed;
    // A top-up opened just before the close may be captured after it: the close settlement returns it too.
    const after = await tickMeter(meter.id, (x) => x.fundedMinor === funded && x.refundedMinor === funded);
    expect(after).toMatchObject({ status: "closed", fundedMinor: funded, refundedMinor: funded, billedMinor: 0 });
    const pis = await paymentsOf(meter.id);
    expect(pis.reduce((s, p) => s + p.amountCaptured, 0)).toBe(funded); // a refused top-up captured nothing
    expect(pis.reduce((s, p) => s + p.amountRefunded, 0)).toBe(funded);
    expect(await walletBalance(customerId)).toBe(10_000);
    await expectMerchantHolds(0);
  });
});
