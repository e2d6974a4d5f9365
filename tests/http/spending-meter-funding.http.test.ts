// A payer's meter funding paying as one of its spending agents (POST /v1/meters/:id/fund with spendingAgentId;
// docs/spending-policies.md): the agent's $1.00 daily budget is checked and counted in the funding charge's
// transaction. Past the budget the funding is refused 402 budget_exceeded and nothing moves (no rail charge, the
// meter's budget and the counter unchanged, the funding called off); five concurrent fundings spend at most the
// budget; another payer's agent is 404.
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { periodStartOf, readSpend } from "../../lib/spend-limits";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { createCustomer } from "../helpers/payments";

// The shared server (tests/global-setup.ts): its limits are high enough for many calls of one key.
const server = { url: baseUrl() };
let payee: TestMerchant;
let payer: TestMerchant;
let other: TestMerchant;
let customer: string;

beforeAll(async () => {
  [payee, payer, other] = await Promise.all([
    createTestMerchant("funded payee"),
    createTestMerchant("funding payer"),
    createTestMerchant("funding other payer"),
  ]);
  customer = (await createCustomer(payee.testKey, { amount: 10_000, currency: "usd" }, server.url)).id;
});

function api(method: string, path: string, key: string, body?: unknown) {
  return call(method, path, { key, base: server.url, body });
}

async function openMeter(): Promise<string> {
  const res = await api("POST", "/v1/meters", payee.testKey, {
    customerId: customer,
    currency: "usd",
    thresholdMinor: 100,
    prepaid: true,
    budgetMinor: 100,
    paymentMethod: "pm_card_visa",
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function createAgent(owner: TestMerchant): Promise<string> {
  const res = await api("POST", "/v1/spending_agents", owner.testKey, {
    name: "Meter agent",
    policy: { budgets: [{ window: "day", currency: "usd", amount: 100 }] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const fund = (meterId: string, amountMinor: number, spendingAgentId: string) =>
  api("POST", `/v1/meters/${meterId}/fund`, payer.testKey, {
    amountMinor,
    currency: "usd",
    paymentMethod: "pm_card_visa",
    spendingAgentId,
  });

const dailySpent = async (agentId: string) =>
  (await readSpend(getDb(), { counterKey: `spending_agent:${agentId}:day`, periodStart: periodStartOf("day"), currency: "USD" })).spent;
const fundedMinor = async (meterId: string) => Number((await getDb().meter.findUniqueOrThrow({ where: { id: meterId } })).fundedMinor);
/** The payer's funding charges the test rail made (the meter's own budget at creation is the payee's). */
const railCharges = async (meterId: string) => {
  const rows = await getDb().$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM test_rail_charges c JOIN payment_intents p ON p.meter_charge_key = c.charge_key
     WHERE p.meter_id = ${meterId} AND p.meter_funding AND p.payer_merchant_id IS NOT NULL AND c.status = 'succeeded'`;
  return Number(rows[0].n);
};

describe("meter funding naming a spending agent", () => {
  it("counts against the agent's daily budget; past it: 402 budget_exceeded, nothing moved", async () => {
    const [meterId, agentId] = await Promise.all([openMeter(), createAgent(payer)]);
    const first = await fund(meterId, 60, agentId);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(await dailySpent(agentId)).toBe(60);
    const funded = await fundedMinor(meterId);
    const charges = await railCharges(meterId);
    expect(charges).toBe(1);
    const listed = await getDb().spendingAgentPayment.findUnique({ where: { paymentIntentId: first.body.paymentIntentId } });
    expect(listed?.spendingAgentId).toBe(agentId); // the agent's page lists the funding

    const refused = await fund(meterId, 50, agentId);
    expect(refused.status, JSON.stringify(refused.body)).toBe(402);
    expect(refused.body.error).toMatchObject({
      code: "PAYMENT_DECLINED",
      details: { reason: "budget_exceeded", spendingAgentId: agentId },
    });
    expect(await dailySpent(agentId)).toBe(60);
    expect(await fundedMinor(meterId)).toBe(funded);
    expect(await railCharges(meterId)).toBe(charges);
    const fundings = await getDb().paymentIntent.findMany({ where: { meterId, meterFunding: true, payerMerchantId: payer.merchantId } });
    expect(fundings.map((p) => [p.amount, p.status, p.spendingAgentId]).sort()).toEqual([
      [50, "canceled", agentId],
      [60, expect.stringMatching(/^(captured|settled)$/), agentId],
    ]);
  });

  it("five concurrent fundings of $0.30 spend at most the $1.00 budget", async () => {
    const [meterId, agentId] = await Promise.all([openMeter(), createAgent(payer)]);
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => fund(meterId, 30, agentId)));
    const paid = answers.filter((a) => a.status === 201).length;
    expect(paid).toBe(3);
    for (const refused of answers.filter((a) => a.status !== 201)) expect(refused.body.error.details.reason).toBe("budget_exceeded");
    expect(await dailySpent(agentId)).toBe(90);
    expect(await railCharges(meterId)).toBe(3);
  });

  it("another payer's agent is 404, nothing opened", async () => {
    const [meterId, foreign] = await Promise.all([openMeter(), createAgent(other)]);
    const res = await fund(meterId, 10, foreign);
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(await getDb().paymentIntent.count({ where: { meterId, meterFunding: true, payerMerchantId: payer.merchantId } })).toBe(0);
  });
});
