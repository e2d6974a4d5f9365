// Spending agents and their policies (docs/spending-policies.md) on real servers: ONE agent with a $1.00 daily budget
// pays through MPP (a shared payment token, the real mppx client), Mastercard (an agentic token, a signed request)
// and A2A with the a2a-x402 extension (its wallet listed on the agent, the payload built by @x402/evm): the charge
// that would pass $1.00 is refused on each path with budget_exceeded in that protocol's own refusal, nothing moved.
// 20 concurrent charges across two server processes spend at most the budget; a declined card gives its
// reservation back; a merchant put on the deny list is refused on every path from the next charge on; each rule
// names itself in details.reason; payment.policy_refused reaches the payer's events.
import { TaskState } from "@a2a-js/sdk";
import { Mppx } from "mppx/client";
import { serviceClientMethod } from "agent-payments-sdk/mpp";
import { x402Client } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { signatureHeaders } from "web-bot-auth";
import { signerFromJWK } from "web-bot-auth/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentPrivateJwk } from "agent-payments-sdk";
import { getDb } from "../../lib/db";
import { periodStartOf, readSpend } from "../../lib/spend-limits";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { a2aClient, send, text, userMessage, X402_EXT } from "../helpers/a2a";
import { registerAgentKey } from "../helpers/agent-registration";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { openCheckout, sleep, tick } from "../helpers/payments";
import { startTestServer } from "../helpers/server";
import { startReceiver } from "../helpers/webhook-receiver";

let s1: ServerProcess;
let s2: ServerProcess;
let payer: TestMerchant;
let shop: TestMerchant;
let otherPayer: TestMerchant;
let resource: { id: string };
let hat: { id: string };

beforeAll(async () => {
  [s1, s2] = await Promise.all([startTestServer({ RATE_LIMIT_MAX: "100000" }), startTestServer({ RATE_LIMIT_MAX: "100000" })]);
  [payer, shop, otherPayer] = await Promise.all([
    createTestMerchant("policy payer"),
    createTestMerchant("policy shop"),
    createTestMerchant("policy other payer"),
  ]);
  resource = (await api("POST", "/v1/paid_resources", shop.testKey, { name: "Forecast", amount: 40, currency: "usd", content: { ok: 1 } }))
    .body;
  hat = (await api("POST", "/v1/products", shop.testKey, { name: "Hat", unitAmount: 25, currency: "usd" })).body;
});
afterAll(() => Promise.all([s1, s2].filter(Boolean).map((s) => s.stop())));

function api(method: string, path: string, key: string, body?: unknown, base = s1.url) {
  return call(method, path, { key, base, body });
}

async function createAgent(body: Record<string, unknown>) {
  const res = await api("POST", "/v1/spending_agents", payer.testKey, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const dailySpent = (agentId: string) =>
  readSpend(getDb(), { counterKey: `spending_agent:${agentId}:day`, periodStart: periodStartOf("day"), currency: "USD" });

const shopPayments = () => getDb().paymentIntent.count({ where: { merchantId: shop.merchantId, status: { in: ["captured", "settled"] } } });

// --- MPP: the hosted resource paid with a shared payment token naming the agent.

async function mintSpt(agentId: string, extra: Record<string, unknown> = {}) {
  const res = await api("POST", "/v1/shared_payment_tokens", payer.testKey, {
    paymentMethod: "pm_card_visa",
    maxAmount: 1000,
    currency: "usd",
    spendingAgentId: agentId,
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function payMpp(agentId: string) {
  const token = await mintSpt(agentId, { merchantId: shop.merchantId });
  const first = await fetch(`${s1.url}/mpp/r/${resource.id}`);
  expect(first.status).toBe(402);
  const credential = await Mppx.create({ methods: [serviceClientMethod({ token: () => token.id })], polyfill: false }).createCredential(
    first,
  );
  return fetch(`${s2.url}/mpp/r/${resource.id}`, { headers: { Authorization: credential } });
}

// --- Mastercard: an agentic token naming the agent, paid by a signed request.

interface CardAgent {
  id: string;
  signatureAgent: string;
  key: AgentPrivateJwk;
}
let cardAgent: CardAgent;

async function signed(path: string) {
  const sa = `sig1="${cardAgent.signatureAgent.replace(/^https?:\/\/[^/]+/, s1.url)}"`;
  const request = new Request(`${s1.url}${path}`, { method: "POST", headers: { "Signature-Agent": sa } });
  const created = new Date();
  const h = await signatureHeaders(request, await signerFromJWK(cardAgent.key), {
    created,
    expires: new Date(created.getTime() + 300_000),
    components: ["@authority", "signature-agent", "@method", "@path"],
  });
  return { "Signature-Agent": sa, Signature: h.Signature, "Signature-Input": h["Signature-Input"] };
}

async function payMastercard(spendingAgentId: string, amount: number) {
  if (!cardAgent) {
    const res = await registerAgentKey("mastercard", payer.testKey, { name: "policy card agent" });
    expect(res.status).toBe(201);
    cardAgent = { ...res.body, key: res.key };
  }
  const token = await api("POST", "/mastercard/agentic_tokens", payer.testKey, {
    paymentMethod: "pm_card_mastercard",
    agentKeyId: cardAgent.id,
    merchantId: shop.merchantId,
    spendingAgentId,
    limits: { maxAmount: 5000, currency: "usd" },
  });
  expect(token.status, JSON.stringify(token.body)).toBe(201);
  expect(token.body.spendingAgentId).toBe(spendingAgentId);
  const codePath = `/mastercard/agentic_tokens/${token.body.id}/dtvc`;
  const code = await call("POST", codePath, { key: payer.testKey, base: s1.url, headers: await signed(codePath) });
  expect(code.status).toBe(200);
  const checkout = await openCheckout(shop.testKey, { amount, currency: "usd" }, s1.url);
  const payPath = `/mastercard/checkouts/${checkout.id}/pay`;
  return call("POST", payPath, {
    key: payer.testKey,
    base: s1.url,
    body: { agenticToken: token.body.id, dtvc: code.body.dtvc },
    headers: await signed(payPath),
  });
}

// --- A2A with a2a-x402: the agent's wallet pays the merchant agent's task.

function wallet() {
  const account = privateKeyToAccount(generatePrivateKey());
  return { address: account.address, x402: new x402Client().register("eip155:84532", new ExactEvmScheme(account)) };
}

async function payA2a(w: ReturnType<typeof wallet>) {
  const client = await a2aClient(shop.merchantId, payer.testKey, s1.url);
  const t1 = await send(client, userMessage([text(`buy ${hat.id} 1`)]), [X402_EXT]);
  expect(t1.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  const payload = await w.x402.createPaymentPayload(t1.status!.message!.metadata!["x402.payment.required"]);
  const other = await a2aClient(shop.merchantId, payer.testKey, s2.url);
  return send(
    other,
    userMessage([text("paying")], {
      taskId: t1.id,
      contextId: t1.contextId,
      metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": payload },
    }),
    [X402_EXT],
  );
}

describe("spending agents and policies (the API)", () => {
  it("create, retrieve, list, set the policy and the payer's default; bad input 400; another payer's agent 404", async () => {
    const w = wallet();
    const agent = await createAgent({
      name: "Research agent",
      walletAddresses: [w.address],
      policy: { budgets: [{ window: "day", currency: "usd", amount: 500 }] },
      metadata: { team: "r&d" },
    });
    expect(agent).toMatchObject({
      id: expect.stringMatching(/^sag_/),
      object: "spending_agent",
      walletAddresses: [w.address.toLowerCase()],
      policy: {
        budgets: [{ window: "day", currency: "USD", amount: 500 }],
        maxPerTransaction: [],
        allowedMerchants: null,
        deniedMerchants: [],
        allowedProtocols: null,
        approvalThreshold: [],
        hours: null,
      },
      livemode: false,
    });
    expect((await api("GET", `/v1/spending_agents/${agent.id}`, payer.testKey)).body).toEqual(agent);
    expect((await api("GET", "/v1/spending_agents?limit=100", payer.testKey)).body.data.map((a: any) => a.id)).toContain(agent.id);

    const set = await api("POST", `/v1/spending_agents/${agent.id}/policy`, payer.testKey, { deniedMerchants: [shop.merchantId] });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      object: "spending_policy",
      spendingAgentId: agent.id,
      policy: { deniedMerchants: [shop.merchantId] },
    });
    const def = await api("POST", "/v1/spending_agents/default/policy", otherPayer.testKey, {
      maxPerTransaction: [{ currency: "usd", amount: 100 }],
    });
    expect(def.status).toBe(200);
    expect(def.body).toMatchObject({ spendingAgentId: null, policy: { maxPerTransaction: [{ currency: "USD", amount: 100 }] } });

    // The same wallet on a second agent: 409; a bad policy: 400 naming the field.
    const taken = await api("POST", "/v1/spending_agents", payer.testKey, { name: "Copy", walletAddresses: [w.address] });
    expect(taken.status).toBe(409);
    expect(taken.body.error.details.reason).toBe("wallet_address_taken");
    const bad = await api("POST", `/v1/spending_agents/${agent.id}/policy`, payer.testKey, {
      budgets: [{ window: "hour", currency: "usd", amount: 1 }],
    });
    expect(bad.status).toBe(400);
    // Another payer cannot read it nor name it on its tokens.
    expect((await api("GET", `/v1/spending_agents/${agent.id}`, otherPayer.testKey)).status).toBe(404);
    const foreign = await api("POST", "/v1/shared_payment_tokens", otherPayer.testKey, {
      paymentMethod: "pm_card_visa",
      maxAmount: 100,
      currency: "usd",
      spendingAgentId: agent.id,
    });
    expect(foreign.status).toBe(404);
  });
});

describe("one agent, a $1.00 daily budget, three protocols", () => {
  it("MPP (SPT), Mastercard (agentic token) and A2A (x402) count against one budget; the charge that would pass $1.00 is refused on each with budget_exceeded, nothing moved", async () => {
    const w = wallet();
    const agent = await createAgent({
      name: "Shopper",
      walletAddresses: [w.address],
      policy: { budgets: [{ window: "day", currency: "usd", amount: 100 }] },
    });

    expect((await payMpp(agent.id)).status).toBe(200); // 40
    const card = await payMastercard(agent.id, 30); // 70
    expect(card.status, JSON.stringify(card.body)).toBe(200);
    const bought = await payA2a(w); // 25: 95
    expect(bought.status?.state, JSON.stringify(bought.status)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(await dailySpent(agent.id)).toMatchObject({ spent: 95, uses: 3 });
    const paid = await shopPayments();

    // MPP: the Payment scheme's problem (verification_failed) with the rule as its reason; the token stays active.
    const mpp = await payMpp(agent.id);
    expect(mpp.status).toBe(402);
    const problem = await mpp.json();
    expect(problem).toMatchObject({ type: "https://paymentauth.org/problems/verification-failed", reason: "budget_exceeded" });
    // Mastercard: the card-network decline, 402 PAYMENT_DECLINED.
    const declined = await payMastercard(agent.id, 30);
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({
      code: "PAYMENT_DECLINED",
      details: { reason: "budget_exceeded", spendingAgentId: agent.id },
    });
    // A2A: the task fails with the a2a-x402 payment-failed status naming the rule.
    const refused = await payA2a(w);
    expect(refused.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(refused.status?.message?.metadata).toMatchObject({
      "x402.payment.status": "payment-failed",
      "x402.payment.receipts": [{ success: false, errorReason: "budget_exceeded" }],
    });

    expect(await shopPayments()).toBe(paid);
    expect(await dailySpent(agent.id)).toMatchObject({ spent: 95, uses: 3 });
    // Each refusal is a payment.policy_refused event of the payer (written right after the refusal rolled back).
    let refusals: any[] = [];
    for (let i = 0; i < 50 && refusals.length < 3; i++) {
      const events = await api("GET", "/v1/events?type=payment.policy_refused&limit=100", payer.testKey);
      refusals = events.body.data.filter((e: any) => e.data.object.spendingAgentId === agent.id);
      if (refusals.length < 3) await sleep(100);
    }
    expect(refusals.map((e: any) => e.data.object.protocol).sort()).toEqual(["a2a", "mastercard", "mpp"]);
    expect(refusals.every((e: any) => e.data.object.reason === "budget_exceeded")).toBe(true);
  });

  it("20 concurrent charges across two server processes spend at most the budget; a declined card gives its reservation back", async () => {
    const agent = await createAgent({ name: "Burst", policy: { budgets: [{ window: "day", currency: "usd", amount: 100 }] } });
    const declinedToken = await mintSpt(agent.id, { paymentMethod: "pm_card_chargeDeclined" });
    const declined = await api("POST", `/v1/shared_payment_tokens/${declinedToken.id}/redeem`, shop.testKey, {
      amount: 15,
      currency: "usd",
    });
    expect(declined.status).toBe(402);
    expect(declined.body.error.details.reason).not.toBe("budget_exceeded");
    expect(await dailySpent(agent.id)).toMatchObject({ spent: 0 });

    const tokens = await Promise.all(Array.from({ length: 20 }, () => mintSpt(agent.id)));
    const results = await Promise.all(
      tokens.map((t, i) =>
        api("POST", `/v1/shared_payment_tokens/${t.id}/redeem`, shop.testKey, { amount: 15, currency: "usd" }, i % 2 ? s2.url : s1.url),
      ),
    );
    const ok = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 402);
    expect(ok.length + refused.length, JSON.stringify(results.map((r) => [r.status, r.body?.error?.message]))).toBe(20);
    expect(ok.length).toBe(6); // 6 x 15 = 90; a 7th would pass 100
    expect(refused.every((r) => r.body.error.details.reason === "budget_exceeded")).toBe(true);
    expect(await dailySpent(agent.id)).toMatchObject({ spent: 90, uses: 6 });
    const captured = await getDb().paymentIntent.aggregate({
      where: { id: { in: ok.map((r) => r.body.id) } },
      _sum: { amountCaptured: true },
    });
    expect(captured._sum.amountCaptured).toBe(90);
  });
});

describe("the rules", () => {
  it("a merchant on the deny list is refused on every protocol, from the next charge on", async () => {
    const w = wallet();
    const agent = await createAgent({ name: "Deny", walletAddresses: [w.address], policy: {} });
    // payment.policy_refused is opt-in: sent to the payer's endpoint that names it, never to one with no subscription.
    const [named, unnamed] = await Promise.all([startReceiver(), startReceiver()]);
    const hookA = await api("POST", "/v1/webhook-endpoints", payer.testKey, { url: named.url, enabledEvents: ["payment.policy_refused"] });
    const hookB = await api("POST", "/v1/webhook-endpoints", payer.testKey, { url: unnamed.url });
    expect([hookA.status, hookB.status]).toEqual([201, 201]);
    expect((await payMpp(agent.id)).status).toBe(200);
    const set = await api("POST", `/v1/spending_agents/${agent.id}/policy`, payer.testKey, { deniedMerchants: [shop.merchantId] }, s2.url);
    expect(set.status).toBe(200);
    const paid = await shopPayments();

    const mpp = await payMpp(agent.id);
    expect(mpp.status).toBe(402);
    expect(await mpp.json()).toMatchObject({ reason: "merchant_not_allowed" });
    const card = await payMastercard(agent.id, 30);
    expect(card.status).toBe(402);
    expect(card.body.error.details.reason).toBe("merchant_not_allowed");
    const a2a = await payA2a(w);
    expect(a2a.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(a2a.status?.message?.metadata?.["x402.payment.receipts"][0].errorReason).toBe("merchant_not_allowed");
    const spt = await api("POST", `/v1/shared_payment_tokens/${(await mintSpt(agent.id)).id}/redeem`, shop.testKey, {
      amount: 10,
      currency: "usd",
    });
    expect(spt.status).toBe(402);
    expect(spt.body.error).toMatchObject({ code: "PAYMENT_DECLINED", details: { reason: "merchant_not_allowed" } });
    expect(await shopPayments()).toBe(paid);

    const deliveries = async (endpointId: string) => {
      const rows = await getDb().$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM webhook_deliveries d JOIN events e ON e.id = d.event_id
         WHERE d.endpoint_id = ${endpointId} AND e.type = 'payment.policy_refused' AND e.data->'object'->>'spendingAgentId' = ${agent.id}`;
      return rows[0].n;
    };
    for (let i = 0; i < 50 && (await deliveries(hookA.body.id)) < 4; i++) {
      await tick(s1.url);
      await sleep(100);
    }
    expect(await deliveries(hookA.body.id)).toBe(4); // MPP, Mastercard, A2A, the REST redemption
    expect(await deliveries(hookB.body.id)).toBe(0);
    await Promise.all([named.close(), unnamed.close()]);

    // Taken off the list: the next charge passes again.
    await api("POST", `/v1/spending_agents/${agent.id}/policy`, payer.testKey, {});
    expect((await payMpp(agent.id)).status).toBe(200);
  });

  it("each rule names itself: protocol_not_allowed, amount_over_maximum, outside_hours, approval_pending (approval_required_not_available where it cannot wait); the payer's default applies to an agent without a policy", async () => {
    const redeem = async (policy: Record<string, unknown> | null, amount = 50) => {
      const agent = await createAgent({ name: "Rules", ...(policy ? { policy } : {}) });
      const token = await mintSpt(agent.id);
      return api("POST", `/v1/shared_payment_tokens/${token.id}/redeem`, shop.testKey, { amount, currency: "usd" });
    };
    const reasonOf = (res: { body: any }) => res.body.error?.details?.reason;
    expect(reasonOf(await redeem({ allowedProtocols: ["mpp", "x402"] }))).toBe("protocol_not_allowed");
    expect((await redeem({ allowedProtocols: ["spt"] })).status).toBe(201);
    expect(reasonOf(await redeem({ maxPerTransaction: [{ currency: "usd", amount: 49 }] }))).toBe("amount_over_maximum");
    expect((await redeem({ maxPerTransaction: [{ currency: "usd", amount: 50 }] })).status).toBe(201);
    const hour = new Date().getUTCHours();
    const away = `${String((hour + 2) % 24).padStart(2, "0")}:00`;
    const later = `${String((hour + 3) % 24).padStart(2, "0")}:00`;
    expect(reasonOf(await redeem({ hours: [{ start: away, end: later }] }))).toBe("outside_hours");
    expect((await redeem({ hours: [{ start: later, end: away }] })).status).toBe(201); // wraps past midnight: now is inside
    // Above the threshold the REST redemption waits for the payer (docs/approvals.md); a path that cannot wait refuses.
    const waits = await redeem({ approvalThreshold: [{ currency: "usd", amount: 30 }] });
    expect(waits.status, JSON.stringify(waits.body)).toBe(402);
    expect(reasonOf(waits)).toBe("approval_pending");
    const thresholdAgent = await createAgent({ name: "Card rules", policy: { approvalThreshold: [{ currency: "usd", amount: 30 }] } });
    expect(reasonOf(await payMastercard(thresholdAgent.id, 50))).toBe("approval_required_not_available");
    expect(reasonOf(await redeem({ budgets: [{ window: "month", currency: "eur", amount: 1000 }] }))).toBe("budget_exceeded");
    // The payer's default policy: an agent without its own follows it.
    expect(
      (await api("POST", "/v1/spending_agents/default/policy", payer.testKey, { allowedMerchants: [otherPayer.merchantId] })).status,
    ).toBe(200);
    expect(reasonOf(await redeem(null))).toBe("merchant_not_allowed");
    expect((await redeem({})).status).toBe(201); // its own (empty) policy wins over the default
    expect((await api("POST", "/v1/spending_agents/default/policy", payer.testKey, {})).status).toBe(200);
    expect((await redeem(null)).status).toBe(201);
  });
});
