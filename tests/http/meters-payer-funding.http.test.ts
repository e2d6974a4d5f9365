// POST /v1/meters/:id/fund (docs/meters.md, "Funding by the payer"): merchant B, acting as payer with its OWN
// key, funds merchant A's prepaid meter, from a test card or one of B's own customers' wallets. A never sees
// B's wallet id; B never sees A's meter; retries charge once; close refunds B's funding to B's wallet.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import { call } from "../helpers/http";
import { tickUntil } from "../helpers/meters";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { allEvents, createCustomer, tick } from "../helpers/payments";
import { startTestServer } from "../helpers/server";
import type { ServerProcess } from "../../scripts/lib/server-process";

const PRICE = 400_000; // 0.4 of a cent in base units
const UNIT = 1_000_000;

type Json = Record<string, any>;

let a: TestMerchant; // the payee: owns the meter
let b: TestMerchant; // the payer
let aCustomer: string;
let bWallet: string; // one of B's own customers, with a test wallet
beforeEach(async () => {
  [a, b] = await Promise.all([createTestMerchant("Payee A"), createTestMerchant("Payer B")]);
  aCustomer = (await createCustomer(a.testKey, { amount: 10_000, currency: "usd" })).id;
  bWallet = (await createCustomer(b.testKey, { amount: 1_000, currency: "usd" })).id;
});

async function openMeter(body: Json = {}): Promise<Json> {
  const res = await call("POST", "/v1/meters", {
    key: a.testKey,
    body: {
      customerId: aCustomer,
      currency: "usd",
      thresholdMinor: 100,
      prepaid: true,
      budgetMinor: 100,
      paymentMethod: "pm_card_visa",
      metadata: { secret: "a-only" },
      ...body,
    },
  });
  if (res.status !== 201) throw new Error(`open meter: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

// The payer states the meter's currency (every meter here is USD) unless a test says otherwise.
const fund = (meterId: string, body: Json, headers: Record<string, string> = {}, key = b.testKey) =>
  call("POST", `/v1/meters/${meterId}/fund`, { key, body: { currency: "usd", ...body }, headers });
const meterOf = async (id: string): Promise<Json> => (await call("GET", `/v1/meters/${id}`, { key: a.testKey })).body;
const paymentsOf = async (meterId: string): Promise<Json[]> =>
  (await call("GET", `/v1/payment_intents?meterId=${meterId}&limit=100`, { key: a.testKey })).body.data;

async function walletBalance(customer: string): Promise<number> {
  const row = await getDb().testWallet.findUniqueOrThrow({ where: { customerId_currency: { customerId: customer, currency: "USD" } } });
  return row.balance;
}

/** Succeeded charges the test rail holds for a funding PaymentIntent (fundings are charged under their meterChargeKey). */
async function railCharges(paymentIntentId: string): Promise<number> {
  const rows = await getDb().$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM test_rail_charges c JOIN payment_intents p ON p.meter_charge_key = c.charge_key
     WHERE p.id = ${paymentIntentId} AND c.status = 'succeeded'`;
  return Number(rows[0].n);
}

async function expectLedgersBalance(): Promise<void> {
  expect(await verifyLedger(getDb(), [a.merchantId, b.merchantId])).toEqual([]);
}

describe("POST /v1/meters/:id/fund with the payer's own key", () => {
  it("a test card: 201 with the funding only; the budget rises; A's PaymentIntent is a funding of its own customer", async () => {
    const meter = await openMeter();
    const res = await fund(meter.id, { amountMinor: 250, paymentMethod: "pm_card_visa" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get("ratelimit-limit")).toBeTruthy(); // limited per payer key as any /v1 call
    expect(res.body).toEqual({
      object: "meter_funding",
      meterId: meter.id,
      paymentIntentId: expect.stringMatching(/^pi_/),
      status: "captured",
      amount: 250,
      currency: "USD",
      livemode: false,
    });
    expect(await meterOf(meter.id)).toMatchObject({
      fundedMinor: 350,
      budgetBase: 350 * UNIT,
      availableBase: 350 * UNIT,
      customerId: aCustomer,
    });
    const pi = (await paymentsOf(meter.id)).find((p) => p.id === res.body.paymentIntentId);
    expect(pi).toMatchObject({
      amount: 250,
      amountCaptured: 250,
      customerId: aCustomer,
      paymentMethod: "pm_card_visa",
      meterId: meter.id,
      meterPurpose: "funding",
    });
    // B does not see A's PaymentIntent (nor the meter) with its own key.
    expect((await call("GET", `/v1/payment_intents/${res.body.paymentIntentId}`, { key: b.testKey })).status).toBe(404);
    expect((await call("GET", `/v1/meters/${meter.id}`, { key: b.testKey })).status).toBe(404);
    await expectLedgersBalance();
  });

  it("B's own wallet: A sees customer_wallet and its own customer, never B's cus_ id; B's wallet is debited", async () => {
    const meter = await openMeter();
    const res = await fund(meter.id, { amountMinor: 300, paymentMethod: bWallet });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["amount", "currency", "livemode", "meterId", "object", "paymentIntentId", "status"]);
    expect(JSON.stringify(res.body)).not.toContain(aCustomer);
    expect(JSON.stringify(res.body)).not.toContain("a-only");
    expect(await walletBalance(bWallet)).toBe(700);
    expect(await meterOf(meter.id)).toMatchObject({ fundedMinor: 400, budgetBase: 400 * UNIT });

    const pis = await paymentsOf(meter.id);
    expect(pis.find((p) => p.id === res.body.paymentIntentId)).toMatchObject({
      paymentMethod: "customer_wallet",
      customerId: aCustomer,
      amountCaptured: 300,
    });
    const seenByA = JSON.stringify({ pis, meter: await meterOf(meter.id), events: await allEvents(a.testKey) });
    expect(seenByA).not.toContain(bWallet);
    expect(seenByA).toContain("payment_intent.captured");
    await expectLedgersBalance();
  });

  it("a wallet that is not the payer's own is 404 (A's customer, another merchant's), nothing opened", async () => {
    const meter = await openMeter();
    const other = await createTestMerchant("C");
    const cWallet = (await createCustomer(other.testKey, { amount: 1_000, currency: "usd" })).id;
    for (const paymentMethod of [aCustomer, cWallet]) {
      const res = await fund(meter.id, { amountMinor: 10, paymentMethod });
      expect(res.status, paymentMethod).toBe(404);
    }
    expect(await paymentsOf(meter.id)).toHaveLength(1); // only the creation's funding
    expect(await walletBalance(cWallet)).toBe(1_000);
    const sanctioned = await fund(meter.id, { amountMinor: 10, paymentMethod: "pm_card_visa", billingCountry: "KP" });
    expect(sanctioned.status).toBe(403);
    expect((await fund(meter.id, { amountMinor: 10, paymentMethod: "pm_not_a_card" })).status).toBe(400);
    expect((await fund(meter.id, { amountMinor: 0, paymentMethod: "pm_card_visa" })).status).toBe(400);
  });

  it("the same Idempotency-Key: 10 concurrent copies and a later retry charge once; another body with it is 400", async () => {
    const meter = await openMeter();
    const headers = { "Idempotency-Key": `fund-${meter.id}` };
    const body = { amountMinor: 120, paymentMethod: bWallet };
    const copies = await Promise.all(Array.from({ length: 10 }, () => fund(meter.id, body, headers)));
    for (const copy of copies) expect([200, 201], JSON.stringify(copy.body)).toContain(copy.status);
    expect(copies.filter((c) => c.status === 201)).toHaveLength(1);
    const ids = new Set(copies.map((c) => c.body.paymentIntentId));
    expect(ids.size).toBe(1);
    const [paymentIntentId] = ids;

    const retry = await fund(meter.id, body, headers);
    expect(retry.status).toBe(200);
    const { status: _first, ...first } = copies.find((c) => c.status === 201)!.body;
    expect(retry.body).toMatchObject({ ...first, status: expect.stringMatching(/^(captured|settled)$/) });

    expect(await railCharges(paymentIntentId)).toBe(1);
    expect(await walletBalance(bWallet)).toBe(880);
    expect(await meterOf(meter.id)).toMatchObject({ fundedMinor: 220 });
    expect((await paymentsOf(meter.id)).filter((p) => p.meterPurpose === "funding")).toHaveLength(2);

    expect((await fund(meter.id, { ...body, amountMinor: 121 }, headers)).status).toBe(400);
    expect((await fund(meter.id, { ...body, paymentMethod: "pm_card_visa" }, headers)).status).toBe(400);
    // The key is the payer's: A's own top-up with the same header is another request.
    expect((await call("POST", `/v1/meters/${meter.id}/top-up`, { key: a.testKey, body: { amountMinor: 5 }, headers })).status).toBe(200);
    expect(await meterOf(meter.id)).toMatchObject({ fundedMinor: 225 });
    await expectLedgersBalance();
  });

  it("a decline is 402 with { reason, meterId, paymentIntentId }, the budget unchanged; retried, the same answer", async () => {
    const meter = await openMeter();
    const headers = { "Idempotency-Key": `decline-${meter.id}` };
    const res = await fund(meter.id, { amountMinor: 50, paymentMethod: "pm_card_chargeDeclined" }, headers);
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({
      code: "PAYMENT_DECLINED",
      details: { reason: "generic_decline", meterId: meter.id, paymentIntentId: expect.stringMatching(/^pi_/) },
    });
    expect(Object.keys(res.body.error.details).sort()).toEqual(["meterId", "paymentIntentId", "reason"]);
    const again = await fund(meter.id, { amountMinor: 50, paymentMethod: "pm_card_chargeDeclined" }, headers);
    expect(again.status).toBe(402);
    expect(again.body.error.details.paymentIntentId).toBe(res.body.error.details.paymentIntentId);
    // B's wallet without enough money: insufficient_funds, nothing taken.
    const poor = await fund(meter.id, { amountMinor: 5_000, paymentMethod: bWallet });
    expect(poor.status).toBe(402);
    expect(poor.body.error.details.reason).toBe("insufficient_funds");
    expect(await walletBalance(bWallet)).toBe(1_000);
    expect(await meterOf(meter.id)).toMatchObject({ fundedMinor: 100, budgetBase: 100 * UNIT });
    await expectLedgersBalance();
  });

  it("close refunds the unused funds: B's funding goes back to B's wallet, A's own to A's card", async () => {
    const meter = await openMeter(); // A's 100 from a card
    expect((await fund(meter.id, { amountMinor: 300, paymentMethod: bWallet })).status).toBe(201);
    expect(await walletBalance(bWallet)).toBe(700);
    // Usage of 0.8 cent: rounded half up, 1 minor unit drawn; 399 unused.
    const held = await call("POST", `/v1/meters/${meter.id}/reservations`, {
      key: a.testKey,
      body: { quantity: 2, unitPriceMinor: PRICE },
    });
    expect(held.status).toBe(201);
    expect((await call("POST", `/v1/meters/${meter.id}/reservations/${held.body.id}/commit`, { key: a.testKey, body: {} })).status).toBe(
      200,
    );
    expect((await call("POST", `/v1/meters/${meter.id}/close`, { key: a.testKey, body: {} })).status).toBe(200);
    await tickUntil(async () => (await meterOf(meter.id)).refundedMinor === 399);

    expect(await walletBalance(bWallet)).toBe(1_000); // restored by the 300 refunded
    const pis = await paymentsOf(meter.id);
    const bFunding = pis.find((p) => p.paymentMethod === "customer_wallet")!;
    expect(bFunding).toMatchObject({ amountRefunded: 300, status: "refunded" });
    expect(pis.find((p) => p.paymentMethod === "pm_card_visa")).toMatchObject({ amountRefunded: 99 });
    expect(await meterOf(meter.id)).toMatchObject({ status: "closed", fundedMinor: 400, refundedMinor: 399, billedMinor: 1 });
    expect(JSON.stringify(await allEvents(a.testKey))).not.toContain(bWallet);
    await expectLedgersBalance();
  });

  it("404 for an unknown, post-paid or other-mode meter; 409 for a closed one; 400 for another currency; 401 without a key", async () => {
    const meter = await openMeter();
    const body = { amountMinor: 10, paymentMethod: "pm_card_visa" };
    const unknown = await fund("mtr_doesnotexist0000000000", body);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("NOT_FOUND");
    expect((await fund(meter.id, body, {}, b.liveKey)).status).toBe(404);
    expect((await call("POST", `/v1/meters/${meter.id}/fund`, { body })).status).toBe(401);

    const postpaid = await openMeter({ prepaid: false, budgetMinor: undefined });
    const refusedPostpaid = await fund(postpaid.id, body);
    expect(refusedPostpaid.status).toBe(404); // nothing to fund; the payer learns nothing more of the meter
    expect(JSON.stringify(refusedPostpaid.body)).not.toContain("prepaid");

    const otherCurrency = await fund(meter.id, { ...body, currency: "eur" });
    expect(otherCurrency.status).toBe(400);
    expect(otherCurrency.body.error.details.fields).toEqual([{ path: "currency", message: "must be USD" }]);
    expect((await call("POST", `/v1/meters/${meter.id}/fund`, { key: b.testKey, body })).status).toBe(400); // currency is required

    expect((await call("POST", `/v1/meters/${meter.id}/close`, { key: a.testKey, body: {} })).status).toBe(200);
    const refusedClosed = await fund(meter.id, body);
    expect(refusedClosed.status).toBe(409);
    expect(refusedClosed.body.error.details).toEqual({ meterId: meter.id, status: "closed" });
    expect(await paymentsOf(postpaid.id)).toHaveLength(0);
  });
});

describe("crash safety: the payer's process dies between the rail charge and the commit", () => {
  const servers: ServerProcess[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.stop())));

  /** A server that exits at the fault point; the retry and the tick run on the shared one. */
  async function crashingFund(meterId: string, body: Json, headers: Record<string, string> = {}) {
    const s = await startTestServer({ FAULT_INJECTION: "1" });
    servers.push(s);
    const died = await call("POST", `/v1/meters/${meterId}/fund`, {
      key: b.testKey,
      base: s.url,
      body,
      headers: { ...headers, "x-test-fault": "after-rail-charge:exit" },
    }).catch((err: Error) => err);
    expect(died).toBeInstanceOf(Error); // no response: the process exited
    const [funding] = await getDb().paymentIntent.findMany({ where: { meterId, meterFunding: true, payerMerchantId: b.merchantId } });
    expect(funding).toMatchObject({ status: "requires_payment", paymentMethod: "customer_wallet", railPaymentMethod: bWallet });
    expect(await railCharges(funding.id)).toBe(1); // the rail took B's money
    expect(await walletBalance(bWallet)).toBe(1_000 - body.amountMinor);
    return funding;
  }

  it("a retry with the same key records the one charge of B's wallet (the real method, not customer_wallet)", async () => {
    const meter = await openMeter();
    const body = { amountMinor: 40, currency: "usd", paymentMethod: bWallet };
    const headers = { "Idempotency-Key": `crash-${meter.id}` };
    const funding = await crashingFund(meter.id, body, headers);
    const retry = await fund(meter.id, body, headers);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(retry.body).toMatchObject({ paymentIntentId: funding.id, status: "captured", amount: 40 });
    expect(await railCharges(funding.id)).toBe(1);
    expect(await walletBalance(bWallet)).toBe(960);
    expect(await meterOf(meter.id)).toMatchObject({ fundedMinor: 140 });
    await expectLedgersBalance();
  });

  it("without a key, the tick reconciles it by charge key: captured, budget raised, never charged again", async () => {
    const meter = await openMeter();
    const funding = await crashingFund(meter.id, { amountMinor: 60, currency: "usd", paymentMethod: bWallet });
    await getDb().$executeRaw`UPDATE payment_intents SET updated_at = now() - interval '1 minute' WHERE id = ${funding.id}`;
    await tickUntil(async () => (await meterOf(meter.id)).fundedMinor === 160);
    const after = (await paymentsOf(meter.id)).find((p) => p.id === funding.id);
    expect(after).toMatchObject({ paymentMethod: "customer_wallet", amountCaptured: 60 });
    await tick();
    expect(await railCharges(funding.id)).toBe(1);
    expect(await walletBalance(bWallet)).toBe(940);
    await expectLedgersBalance();
  });
});
