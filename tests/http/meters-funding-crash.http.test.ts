// Crash safety of prepaid funding: the process dies between the rail charge and the commit (fault point
// after-rail-charge:exit). A retry with the same Idempotency-Key finds the same funding and records the
// rail's charge without charging again; with no retry, the tick reconciles the funding once no live request
// can still be charging it: untouched since its last charge began for TRANSACTION_TIMEOUT_MS +
// RAIL_TIMEOUT_MS (its updated_at is moved back here rather than waiting). A charge the rail never saw is canceled; a rail failure without a key cancels at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { createCustomer, sleep, tick } from "../helpers/payments";
import { startTestServer, waitForExit } from "../helpers/server";

const servers: ServerProcess[] = [];
let m: TestMerchant;
let customerId: string;
beforeAll(async () => {
  m = await createTestMerchant("Funding crash");
  customerId = (await createCustomer(m.testKey)).id;
});
afterAll(() => Promise.all(servers.map((s) => s.stop())));

async function server(): Promise<ServerProcess> {
  // A dead request's Idempotency-Key claim is taken over after 1 s (the default lock is longer).
  const s = await startTestServer({ FAULT_INJECTION: "1", IDEMPOTENCY_LOCK_SECONDS: "1" });
  servers.push(s);
  return s;
}

const fundingsOf = (meterId: string) =>
  getDb().paymentIntent.findMany({ where: { meterId, meterFunding: true }, orderBy: { meterChargeKey: "asc" } });

/** Charges the test rail really made for a charge key (its own books). */
async function railCharges(chargeKey: string): Promise<number> {
  const rows = await getDb().$queryRaw<
    { n: bigint }[]
  >`SELECT count(*) AS n FROM test_rail_charges WHERE charge_key = ${chargeKey} AND status = 'succeeded'`;
  return Number(rows[0].n);
}

async function openMeter(base: string, body: Record<string, unknown> = {}) {
  const res = await call("POST", "/v1/meters", {
    key: m.testKey,
    base,
    body: { customerId, currency: "usd", thresholdMinor: 1, prepaid: true, paymentMethod: "pm_card_visa", ...body },
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe("a funding that dies between the rail charge and the commit", () => {
  it("top-up: the retry with the same key records the one charge; the budget rises once", async () => {
    const [first, second] = await Promise.all([server(), server()]);
    const meter = await openMeter(second.url, { budgetMinor: 5 });
    const key = `top-up-crash-${meter.id}`;
    const died = await call("POST", `/v1/meters/${meter.id}/top-up`, {
      key: m.testKey,
      base: first.url,
      headers: { "Idempotency-Key": key, "x-test-fault": "after-rail-charge:exit" },
      body: { amountMinor: 7 },
    }).catch((err: Error) => err);
    expect(died).toBeInstanceOf(Error); // no response: the process exited
    expect(await waitForExit(first)).toBe(137);

    // The rail took the money; the service has the funding, not yet captured, and no budget for it.
    const [, pending] = await fundingsOf(meter.id);
    expect(pending).toMatchObject({ status: "requires_payment", amount: 7 });
    expect(await railCharges(pending.meterChargeKey!)).toBe(1);
    expect((await call("GET", `/v1/meters/${meter.id}`, { key: m.testKey, base: second.url })).body.budgetBase).toBe(5_000_000);

    await sleep(1200); // until the dead request's claim on the key expires (before that: 409, retry shortly)
    const retry = await call("POST", `/v1/meters/${meter.id}/top-up`, {
      key: m.testKey,
      base: second.url,
      headers: { "Idempotency-Key": key },
      body: { amountMinor: 7 },
    });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ fundedMinor: 12, budgetBase: 12_000_000 });
    const again = await call("POST", `/v1/meters/${meter.id}/top-up`, {
      key: m.testKey,
      base: second.url,
      headers: { "Idempotency-Key": key },
      body: { amountMinor: 7 },
    });
    expect(again.body).toMatchObject({ fundedMinor: 12 });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await fundingsOf(meter.id)).map((p) => [p.amount, p.status])).toEqual([
      [5, expect.stringMatching(/^(captured|settled)$/)],
      [7, expect.stringMatching(/^(captured|settled)$/)],
    ]);
    expect(await railCharges(pending.meterChargeKey!)).toBe(1);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("create with a key: the retry finds the same meter (200) and records the one charge", async () => {
    const [first, second] = await Promise.all([server(), server()]);
    const key = `create-crash-${Date.now()}`;
    const body = {
      customerId,
      currency: "usd",
      thresholdMinor: 1,
      prepaid: true,
      budgetMinor: 8,
      paymentMethod: "pm_card_visa",
      metadata: { crash: "create-keyed" },
    };
    const died = await call("POST", "/v1/meters", {
      key: m.testKey,
      base: first.url,
      headers: { "Idempotency-Key": key, "x-test-fault": "after-rail-charge:exit" },
      body,
    }).catch((err: Error) => err);
    expect(died).toBeInstanceOf(Error);
    expect(await waitForExit(first)).toBe(137);

    await sleep(1200); // until the dead request's claim on the key expires
    const retry = await call("POST", "/v1/meters", { key: m.testKey, base: second.url, headers: { "Idempotency-Key": key }, body });
    expect(retry.status).toBe(200); // not created by this request: the dead one's meter
    expect(retry.body).toMatchObject({ fundedMinor: 8, budgetBase: 8_000_000 });
    const [funding] = await fundingsOf(retry.body.id);
    expect(funding.status).toMatch(/^(captured|settled)$/);
    expect(await railCharges(funding.meterChargeKey!)).toBe(1);
    expect(await getDb().meter.count({ where: { merchantId: m.merchantId, metadata: { equals: { crash: "create-keyed" } } } })).toBe(1);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });

  it("create without a key: the tick finds the rail's charge and raises the budget; never a second charge", async () => {
    const [first, second] = await Promise.all([server(), server()]);
    const died = await call("POST", "/v1/meters", {
      key: m.testKey,
      base: first.url,
      headers: { "x-test-fault": "after-rail-charge:exit" },
      body: {
        customerId,
        currency: "usd",
        thresholdMinor: 1,
        prepaid: true,
        budgetMinor: 9,
        paymentMethod: "pm_card_visa",
        metadata: { crash: "create" },
      },
    }).catch((err: Error) => err);
    expect(died).toBeInstanceOf(Error);
    expect(await waitForExit(first)).toBe(137);
    const meter = await getDb().meter.findFirstOrThrow({ where: { merchantId: m.merchantId, metadata: { equals: { crash: "create" } } } });
    const [funding] = await fundingsOf(meter.id);
    expect(funding.status).toBe("requires_payment");

    await tick(second.url); // too young: a live request could still be inside its charge
    expect((await getDb().paymentIntent.findUniqueOrThrow({ where: { id: funding.id } })).status).toBe("requires_payment");

    // Opened long ago, but a charge began just now (a retry's, say): still not the tick's to decide.
    await getDb().$executeRaw`UPDATE payment_intents SET created_at = now() - interval '1 hour' WHERE id = ${funding.id}`;
    await tick(second.url);
    expect((await getDb().paymentIntent.findUniqueOrThrow({ where: { id: funding.id } })).status).toBe("requires_payment");

    await getDb().$executeRaw`UPDATE payment_intents SET updated_at = now() - interval '1 minute' WHERE id = ${funding.id}`;
    await tick(second.url);
    expect((await getDb().paymentIntent.findUniqueOrThrow({ where: { id: funding.id } })).status).toMatch(/^(captured|settled)$/);
    expect((await call("GET", `/v1/meters/${meter.id}`, { key: m.testKey, base: second.url })).body).toMatchObject({
      fundedMinor: 9,
      budgetBase: 9_000_000,
    });
    expect(await railCharges(funding.meterChargeKey!)).toBe(1);
    expect(await verifyLedger(getDb(), [m.merchantId])).toEqual([]);
  });
});

describe("fundings the rail never took", () => {
  it("a stale funding unknown to the rail is canceled by the tick; the budget is unchanged", async () => {
    const s = await server();
    const meter = await openMeter(s.url, { budgetMinor: 2 });
    // As a request that died before its rail call would leave it: committed, never charged.
    await getDb().$executeRaw`UPDATE meters SET funding_count = funding_count + 1 WHERE id = ${meter.id}`;
    await getDb().paymentIntent.create({
      data: {
        id: `pi_stale${meter.id.slice(4)}`,
        merchantId: m.merchantId,
        livemode: false,
        status: "requires_payment",
        amount: 3,
        currency: "USD",
        customerId,
        paymentMethod: "pm_card_visa",
        meterId: meter.id,
        meterFunding: true,
        source: "meter",
        meterChargeKey: `${meter.id}:fund:2`,
        createdAt: new Date(Date.now() - 60_000),
        updatedAt: new Date(Date.now() - 60_000),
      },
    });
    await tick(s.url);
    expect((await fundingsOf(meter.id)).map((p) => p.status)).toEqual(["settled", "canceled"]);
    expect((await call("GET", `/v1/meters/${meter.id}`, { key: m.testKey, base: s.url })).body).toMatchObject({
      fundedMinor: 2,
      budgetBase: 2_000_000,
    });
    expect(await railCharges(`${meter.id}:fund:2`)).toBe(0);
  });

  it("a rail failure that certainly charged nothing is 502 and cancels the funding, key or not; the keyed request's retry starts afresh", async () => {
    const s = await server();
    const meter = await openMeter(s.url, { budgetMinor: 1 });
    const failed = await call("POST", `/v1/meters/${meter.id}/top-up`, {
      key: m.testKey,
      base: s.url,
      body: { amountMinor: 4, paymentMethod: "pm_rail_unavailable" },
    });
    expect(failed.status).toBe(502);
    expect((await fundingsOf(meter.id)).map((p) => p.status)).toEqual([expect.stringMatching(/^(captured|settled)$/), "canceled"]);

    // With a key too: nothing pending is left to hold budget room (anyone could pile those up otherwise),
    // and the key is free again, as the request never happened.
    const key = `unavailable-${meter.id}`;
    const keyed = await call("POST", `/v1/meters/${meter.id}/top-up`, {
      key: m.testKey,
      base: s.url,
      headers: { "Idempotency-Key": key },
      body: { amountMinor: 4, paymentMethod: "pm_rail_unavailable" },
    });
    expect(keyed.status).toBe(502);
    const afterKeyed = await fundingsOf(meter.id);
    expect(afterKeyed.map((p) => [p.status, p.payerRequestKey])).toEqual([
      [expect.stringMatching(/^(captured|settled)$/), null],
      ["canceled", null],
      ["canceled", null],
    ]);
    const retried = await call("POST", `/v1/meters/${meter.id}/top-up`, {
      key: m.testKey,
      base: s.url,
      headers: { "Idempotency-Key": key },
      body: { amountMinor: 4, paymentMethod: "pm_card_visa" },
    });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ fundedMinor: 5 });
  });
});
