// A payer's meter funding naming a spending agent whose request dies between the rail's charge and its commit
// (fault point after-rail-charge:exit): the agent's budget count rolled back with the dead request, but the rail
// took the money. The tick's reconcile (lib/meters/fund-meter.ts reconcileFundings) records the charge and counts it
// against the agent's daily budget then (lib/spending-policies/count-charged.ts), once, and lists it on the agent's
// page; the next funding finds the budget spent (402 budget_exceeded), nothing moved. A stale funding the rail never
// took is canceled and counts nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { periodStartOf, readSpend } from "../../lib/spend-limits";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { createCustomer, tick } from "../helpers/payments";
import { startTestServer, waitForExit } from "../helpers/server";

const servers: ServerProcess[] = [];
let payee: TestMerchant;
let payer: TestMerchant;
let customer: string;

beforeAll(async () => {
  [payee, payer] = await Promise.all([createTestMerchant("crash funded payee"), createTestMerchant("crash funding payer")]);
  customer = (await createCustomer(payee.testKey, { amount: 10_000, currency: "usd" })).id;
});
afterAll(() => Promise.all(servers.map((s) => s.stop())));

async function server(): Promise<ServerProcess> {
  const s = await startTestServer({ FAULT_INJECTION: "1", IDEMPOTENCY_LOCK_SECONDS: "1", RATE_LIMIT_MAX: "100000" });
  servers.push(s);
  return s;
}

async function openMeter(base: string): Promise<string> {
  const res = await call("POST", "/v1/meters", {
    key: payee.testKey,
    base,
    body: { customerId: customer, currency: "usd", thresholdMinor: 100, prepaid: true, budgetMinor: 100, paymentMethod: "pm_card_visa" },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function createAgent(base: string): Promise<string> {
  const res = await call("POST", "/v1/spending_agents", {
    key: payer.testKey,
    base,
    body: { name: "Crashing meter agent", policy: { budgets: [{ window: "day", currency: "usd", amount: 100 }] } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const fund = (base: string, meterId: string, amountMinor: number, spendingAgentId: string, headers: Record<string, string> = {}) =>
  call("POST", `/v1/meters/${meterId}/fund`, {
    key: payer.testKey,
    base,
    headers,
    body: { amountMinor, currency: "usd", paymentMethod: "pm_card_visa", spendingAgentId },
  });

const dailySpent = async (agentId: string) =>
  (await readSpend(getDb(), { counterKey: `spending_agent:${agentId}:day`, periodStart: periodStartOf("day"), currency: "USD" })).spent;
const payerFundings = (meterId: string) =>
  getDb().paymentIntent.findMany({
    where: { meterId, meterFunding: true, payerMerchantId: payer.merchantId },
    orderBy: { createdAt: "asc" },
  });
const railCharges = async (chargeKey: string) => {
  const rows = await getDb().$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM test_rail_charges WHERE charge_key = ${chargeKey} AND status = 'succeeded'`;
  return Number(rows[0].n);
};
/** As if the funding's last charge began a minute ago: the tick may decide it now (the grace has passed). */
const age = (id: string) => getDb().$executeRaw`UPDATE payment_intents SET updated_at = now() - interval '1 minute' WHERE id = ${id}`;

describe("a crashed funding of a spending agent, reconciled by the tick", () => {
  it("counts the rail's charge against the agent's budget once; the next funding past the budget is refused", async () => {
    const [first, second] = await Promise.all([server(), server()]);
    const [meterId, agentId] = await Promise.all([openMeter(second.url), createAgent(second.url)]);

    const died = await fund(first.url, meterId, 70, agentId, { "x-test-fault": "after-rail-charge:exit" }).catch((err: Error) => err);
    expect(died).toBeInstanceOf(Error); // no answer: the process exited
    expect(await waitForExit(first)).toBe(137);
    const [pending] = await payerFundings(meterId);
    expect(pending).toMatchObject({ status: "requires_payment", amount: 70, spendingAgentId: agentId });
    expect(await railCharges(pending.meterChargeKey!)).toBe(1); // the rail took it
    expect(await dailySpent(agentId)).toBe(0); // its count rolled back with the dead request

    await age(pending.id);
    await tick(second.url);
    const recorded = await getDb().paymentIntent.findUniqueOrThrow({ where: { id: pending.id } });
    expect(recorded.status).toMatch(/^(captured|settled)$/);
    expect(await dailySpent(agentId)).toBe(70);
    const listed = await getDb().spendingAgentPayment.findUnique({ where: { paymentIntentId: pending.id } });
    expect(listed?.spendingAgentId).toBe(agentId);
    await tick(second.url); // nothing left to reconcile: counted once
    expect(await dailySpent(agentId)).toBe(70);
    expect(await railCharges(pending.meterChargeKey!)).toBe(1);

    const over = await fund(second.url, meterId, 40, agentId);
    expect(over.status, JSON.stringify(over.body)).toBe(402);
    expect(over.body.error.details).toMatchObject({ reason: "budget_exceeded", spendingAgentId: agentId, spent: 70 });
    const fits = await fund(second.url, meterId, 30, agentId);
    expect(fits.status, JSON.stringify(fits.body)).toBe(201);
    expect(await dailySpent(agentId)).toBe(100);
  });

  it("a stale funding the rail never took is canceled and counts nothing", async () => {
    const s = await server();
    const [meterId, agentId] = await Promise.all([openMeter(s.url), createAgent(s.url)]);
    // As a request that died before its rail call would leave it: committed, never charged.
    await getDb().$executeRaw`UPDATE meters SET funding_count = funding_count + 1 WHERE id = ${meterId}`;
    const meter = await getDb().meter.findUniqueOrThrow({ where: { id: meterId } });
    const stale = await getDb().paymentIntent.create({
      data: {
        id: `pi_stalesag${meterId.slice(4)}`,
        merchantId: payee.merchantId,
        livemode: false,
        status: "requires_payment",
        amount: 50,
        currency: "USD",
        customerId: customer,
        paymentMethod: "pm_card_visa",
        meterId,
        meterFunding: true,
        source: "meter",
        meterChargeKey: `${meterId}:fund:${meter.fundingCount}`,
        payerMerchantId: payer.merchantId,
        spendingAgentId: agentId,
        createdAt: new Date(Date.now() - 60_000),
        updatedAt: new Date(Date.now() - 60_000),
      },
    });
    await tick(s.url);
    expect((await getDb().paymentIntent.findUniqueOrThrow({ where: { id: stale.id } })).status).toBe("canceled");
    expect(await dailySpent(agentId)).toBe(0);
  });
});
