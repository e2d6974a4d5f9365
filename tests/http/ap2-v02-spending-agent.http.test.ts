// An AP2 v0.2 buyer key naming a spending agent (docs/a2a.md "AP2 v0.2", docs/spending-policies.md): the payer
// registers its trusted surface's key for one of its agents; every charge under a mandate that key signed (an open,
// human-not-present one above all) is checked against that agent's policy in the capture's transaction and counted
// against its budget, though the shared payment token names no agent: the charge that would pass the daily budget
// is refused (budget_exceeded), nothing charged; the deny list refuses the merchant; a token naming another agent is
// refused (spending_agent_mismatch). Another payer's agent cannot be named (404).
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { periodStartOf, readSpend } from "../../lib/spend-limits";
import { Ap2V02Buyer, newKeys, type Ap2CheckoutOffer } from "../helpers/ap2-v02-buyer";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

let seller: TestMerchant;
let buyer: TestMerchant;
let stranger: TestMerchant;
let ap2: Ap2V02Buyer;
let agentId: string;
let product: { id: string };

const api = (method: string, path: string, key: string, body?: unknown) => call(method, path, { key, body });

async function createAgent(key: string, body: Record<string, unknown>): Promise<string> {
  const res = await api("POST", "/v1/spending_agents", key, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  [seller, buyer, stranger] = await Promise.all([
    createTestMerchant("AP2 agent seller"),
    createTestMerchant("AP2 agent buyer"),
    createTestMerchant("AP2 agent stranger"),
  ]);
  product = (await api("POST", "/v1/products", seller.testKey, { name: "Coffee", unitAmount: 500, currency: "usd" })).body;
  agentId = await createAgent(buyer.testKey, {
    name: "AP2 shopper",
    policy: { budgets: [{ window: "day", currency: "usd", amount: 1200 }] },
  });
  // The trusted surface's key, registered for the agent (the helper's own register() names none).
  ap2 = new Ap2V02Buyer(seller, buyer, "AP2 agent seller");
  [ap2.user, ap2.agent] = await Promise.all([newKeys(), newKeys()]);
  const registered = await api("POST", "/ap2/buyer_keys", buyer.testKey, {
    name: "agent surface",
    jwk: ap2.user.publicKey,
    spendingAgentId: agentId,
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  expect(registered.body.spendingAgentId).toBe(agentId);
  ap2.kid = registered.body.kid;
  ap2.keyId = registered.body.id;
});

const dailySpent = () =>
  readSpend(getDb(), { counterKey: `spending_agent:${agentId}:day`, periodStart: periodStartOf("day"), currency: "USD" });
const sellerPaid = () =>
  getDb().paymentIntent.count({ where: { merchantId: seller.merchantId, source: "ap2", status: { in: ["captured", "settled"] } } });

/** The payer's open (human-not-present) mandates for one coffee at a time, signed with the agent's buyer key. */
async function openMandates() {
  const cnf = { jwk: ap2.agent.publicKey };
  const openCheckout = await ap2.signMandate({
    vct: "mandate.checkout.open.1",
    cnf,
    constraints: [{ type: "checkout.allowed_merchants", allowed: [ap2.payee()] }],
  });
  const openPayment = await ap2.signMandate({
    vct: "mandate.payment.open.1",
    cnf,
    constraints: [
      { type: "payment.amount_range", currency: "USD", max: 1000, min: 0 },
      { type: "payment.allowed_payees", allowed: [ap2.payee()] },
      { type: "payment.budget", max: 100, currency: "USD" },
      { type: "payment.agent_recurrence", frequency: "ON_DEMAND", max_occurrences: 100 },
    ],
  });
  return { openCheckout, openPayment };
}

async function payOpen(open: Awaited<ReturnType<typeof openMandates>>, token?: string) {
  const co: Ap2CheckoutOffer = await ap2.checkout([{ product_id: product.id, quantity: 1 }]);
  const spt = token ?? (await ap2.mintToken());
  return ap2.pay(co, {
    checkout_mandate: await ap2.bind(open.openCheckout, ap2.closedCheckout(co), co),
    payment_mandate: await ap2.bind(open.openPayment, ap2.closedPayment(co, spt), co),
  });
}

describe("an AP2 v0.2 buyer key naming a spending agent", () => {
  it("another payer's agent cannot be named (404); a key's listing shows its agent", async () => {
    const theirs = await createAgent(stranger.testKey, { name: "not yours" });
    const keys = await newKeys();
    const res = await api("POST", "/ap2/buyer_keys", buyer.testKey, { jwk: keys.publicKey, spendingAgentId: theirs });
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    const listed = await api("GET", "/ap2/buyer_keys", buyer.testKey);
    expect(listed.body.data.find((k: { id: string }) => k.id === ap2.keyId)).toMatchObject({ spendingAgentId: agentId });
  });

  it("charges under its open mandates count against the agent's daily budget; the one that would pass it is refused, nothing charged", async () => {
    const open = await openMandates();
    const before = await sellerPaid();
    for (let i = 0; i < 2; i++) {
      const res = await payOpen(open);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const listed = await getDb().spendingAgentPayment.findUnique({ where: { paymentIntentId: res.body.payment_intent_id } });
      expect(listed?.spendingAgentId).toBe(agentId); // on the agent's page
    }
    expect(await dailySpent()).toMatchObject({ spent: 1000, uses: 2 });
    const over = await payOpen(open);
    expect(over.status, JSON.stringify(over.body)).toBe(402);
    expect(over.body.error).toMatchObject({ code: "PAYMENT_DECLINED", details: { reason: "budget_exceeded", spendingAgentId: agentId } });
    expect(await sellerPaid()).toBe(before + 2);
    expect(await dailySpent()).toMatchObject({ spent: 1000, uses: 2 });
  });

  it("the agent's deny list refuses the merchant; a token of another agent is refused (spending_agent_mismatch)", async () => {
    const open = await openMandates();
    const before = await sellerPaid();
    const other = await createAgent(buyer.testKey, { name: "other", policy: {} });
    const token = await api("POST", "/v1/shared_payment_tokens", buyer.testKey, {
      paymentMethod: "pm_card_visa",
      maxAmount: 1000,
      currency: "usd",
      merchantId: seller.merchantId,
      spendingAgentId: other,
    });
    expect(token.status, JSON.stringify(token.body)).toBe(201);
    const mismatch = await payOpen(open, token.body.id);
    expect(mismatch.status, JSON.stringify(mismatch.body)).toBe(402);
    expect(mismatch.body.error.details.reason).toBe("spending_agent_mismatch");

    const denied = await api("POST", `/v1/spending_agents/${agentId}/policy`, buyer.testKey, {
      deniedMerchants: [seller.merchantId],
      budgets: [{ window: "day", currency: "usd", amount: 100_000 }],
    });
    expect(denied.status, JSON.stringify(denied.body)).toBe(200);
    const refused = await payOpen(open);
    expect(refused.status, JSON.stringify(refused.body)).toBe(402);
    expect(refused.body.error.details).toMatchObject({ reason: "merchant_not_allowed", spendingAgentId: agentId });
    expect(await sellerPaid()).toBe(before);

    // Off the list: the next charge under the same open mandate passes, counted for the agent.
    expect((await api("POST", `/v1/spending_agents/${agentId}/policy`, buyer.testKey, {})).status).toBe(200);
    const paid = await payOpen(open);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(await sellerPaid()).toBe(before + 1);
  });
});
