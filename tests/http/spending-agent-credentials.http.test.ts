// Spending agents, second round (docs/spending-policies.md), on the real server: Visa instructions, card-network
// agent keys and API keys (a restricted key included) name a spending agent, and the capture each pays runs the
// agent's policy: the charge that would pass the daily budget is refused with budget_exceeded, nothing moved.
// Agents are updated and deleted (detached): a credential still naming a deleted agent is refused
// (spending_agent_deleted), never paid under the payer's looser default. A wallet address is proved by an EIP-191
// signature (viem's account signs the service's challenge): then a live agent lists it.
import { createSignature } from "http-message-sig";
import { signAgentObject, signAgentRequest, type AgentPrivateJwk } from "agent-payments-sdk";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { periodStartOf, readSpend } from "../../lib/spend-limits";
import { registerAgentKey } from "../helpers/agent-registration";
import { dashboardCall, dashboardMerchant, type DashboardMerchant } from "../helpers/dashboard";
import { baseUrl, call, type ApiResponse } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { openCheckout } from "../helpers/payments";

let payer: DashboardMerchant;
let shop: TestMerchant;

beforeAll(async () => {
  [payer, shop] = await Promise.all([dashboardMerchant("credentials payer"), createTestMerchant("credentials shop")]);
});

const DAILY_100 = { budgets: [{ window: "day", currency: "usd", amount: 100 }] };

async function createAgent(body: Record<string, unknown>, key = payer.key) {
  const res = await call("POST", "/v1/spending_agents", { key, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const dailySpent = async (agentId: string) =>
  (await readSpend(getDb(), { counterKey: `spending_agent:${agentId}:day`, periodStart: periodStartOf("day"), currency: "USD" })).spent;

const shopPayments = () => getDb().paymentIntent.count({ where: { merchantId: shop.merchantId, status: { in: ["captured", "settled"] } } });

function expectRefused(res: ApiResponse, reason: string, agentId: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(402);
  expect(res.body.error).toMatchObject({ code: "PAYMENT_DECLINED", details: { reason, spendingAgentId: agentId } });
}

// --- Visa: an instruction (or the agent key behind it) naming the agent; single-use credentials pay checkouts.

interface VisaAgent {
  id: string;
  keyid: string;
  key: AgentPrivateJwk;
}

async function visaAgent(spendingAgentId?: string): Promise<VisaAgent> {
  const res = await registerAgentKey("visa", payer.key, { name: "policy TAP agent", spendingAgentId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.spendingAgentId).toBe(spendingAgentId ?? null);
  return { ...res.body, key: res.key };
}

async function visaInstruction(agent: VisaAgent, spendingAgentId?: string) {
  const res = await call("POST", "/visa/instructions", {
    key: payer.key,
    body: {
      paymentMethod: "pm_card_visa",
      agentKeyId: agent.id,
      mandates: [
        {
          description: "Tools",
          declineThreshold: { amount: 5000, currency: "usd" },
          effectiveUntilTime: new Date(Date.now() + 3600_000).toISOString(),
          merchantId: shop.merchantId,
        },
      ],
      assuranceData: [{ verificationMethod: "passkey", verificationResults: "verified", verificationTimestamp: new Date().toISOString() }],
      ...(spendingAgentId ? { spendingAgentId } : {}),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.spendingAgentId).toBe(spendingAgentId ?? null);
  return res.body;
}

/** TAP headers (label sig2, ("@authority" "@path")) signed with the agent's key by the stock http-message-sig. */
async function tapSigned(agent: VisaAgent, url: string) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(48))).toString("base64");
  const cryptoKey = await crypto.subtle.importKey("jwk", { ...agent.key, ext: true } as JsonWebKey, { name: "Ed25519" }, false, ["sign"]);
  const created = Math.floor(Date.now() / 1000);
  const fields = await createSignature(
    { kind: "request", method: "POST", targetUri: url, fields: [] },
    {
      label: "sig2",
      components: ["@authority", "@path"],
      parameters: { created, expires: created + 480, keyid: agent.keyid, alg: "ed25519", nonce, tag: "agent-payer-auth" },
      signer: {
        algorithm: "ed25519",
        sign: async (data) => new Uint8Array(await crypto.subtle.sign("Ed25519", cryptoKey, data as Uint8Array<ArrayBuffer>)),
      },
    },
  );
  return { headers: { "Signature-Input": fields.signatureInput, Signature: fields.signature }, nonce };
}

/** A fresh credential of the instruction pays a new checkout of `amount` cents of the shop. */
async function payVisa(agent: VisaAgent, instructionId: string, amount: number) {
  const credentialPath = `/visa/instructions/${instructionId}/credentials`;
  const credential = await call("POST", credentialPath, {
    key: payer.key,
    headers: signAgentRequest({ method: "POST", url: `${baseUrl()}${credentialPath}`, privateJwk: agent.key, tag: "credential-request" })
      .headers,
    body: { merchantId: shop.merchantId, amount: 2000, currency: "usd" },
  });
  expect(credential.status, JSON.stringify(credential.body)).toBe(201);
  const checkout = await openCheckout(shop.testKey, { amount, currency: "usd" });
  const path = `/visa/checkouts/${checkout.id}/pay`;
  const { headers, nonce } = await tapSigned(agent, `${baseUrl()}${path}`);
  const container = signAgentObject({ payload: { paymentMethod: credential.body.id } }, agent.key, nonce);
  const res = await call("POST", path, { key: payer.key, headers, body: { agenticPaymentContainer: container } });
  return { res, credentialId: credential.body.id as string };
}

async function expectVisaBudget(agentId: string, agent: VisaAgent, instructionId: string) {
  expect((await payVisa(agent, instructionId, 60)).res.status).toBe(200);
  const before = await shopPayments();
  const { res, credentialId } = await payVisa(agent, instructionId, 60);
  expectRefused(res, "budget_exceeded", agentId);
  expect(res.body.error.details).toMatchObject({ window: "day", budget: 100, spent: 60 });
  expect(await shopPayments()).toBe(before);
  expect(await dailySpent(agentId)).toBe(60);
  expect((await getDb().visaCredential.findUniqueOrThrow({ where: { id: credentialId } })).status).toBe("active"); // unspent
}

// --- API keys: the payer's own key pays a paywall's terms.

const payPaywall = (key: string, amount: number) =>
  call("POST", "/v1/paywall/pay", {
    key,
    body: { merchantId: shop.merchantId, amount, currency: "usd", sku: "tool:search", paymentMethod: "pm_card_visa" },
  });

async function dashboardKey(body: Record<string, unknown>) {
  return dashboardCall(payer.session, "POST", "/api/dashboard/api-keys", { body, csrfToken: payer.csrfToken });
}

describe("credentials naming a spending agent: each capture runs its policy", () => {
  it("a Visa instruction naming the agent: past the $1.00 daily budget, budget_exceeded, nothing moved", async () => {
    const agent = await createAgent({ name: "Visa shopper", policy: DAILY_100 });
    const tap = await visaAgent();
    const instruction = await visaInstruction(tap, agent.id);
    await expectVisaBudget(agent.id, tap, instruction.id);
  });

  it("an agent key naming the agent governs what its instructions pay when they name none", async () => {
    const agent = await createAgent({ name: "Keyed shopper", policy: DAILY_100 });
    const tap = await visaAgent(agent.id);
    const instruction = await visaInstruction(tap);
    await expectVisaBudget(agent.id, tap, instruction.id);
  });

  it("an API key (a restricted one) naming the agent: its paywall payments count; another payer's agent is 404", async () => {
    const agent = await createAgent({ name: "Keyed buyer", policy: DAILY_100 });
    const key = await dashboardKey({ name: "buyer", permissions: { paywall: "write" }, spendingAgentId: agent.id });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    expect(key.body).toMatchObject({ type: "restricted", spendingAgentId: agent.id });
    expect((await payPaywall(key.body.secret, 60)).status).toBe(201);
    const before = await shopPayments();
    expectRefused(await payPaywall(key.body.secret, 60), "budget_exceeded", agent.id);
    expect(await shopPayments()).toBe(before);
    expect(await dailySpent(agent.id)).toBe(60);
    // The payer's other keys are not governed by it.
    expect((await payPaywall(payer.key, 60)).status).toBe(201);

    const stranger = await createTestMerchant("stranger");
    const theirs = await createAgent({ name: "Theirs" }, stranger.testKey);
    expect((await dashboardKey({ name: "x", spendingAgentId: theirs.id })).status).toBe(404);
  });
});

describe("updating and deleting a spending agent", () => {
  it("POST updates name, description and metadata (merged; '' removes a key); 400 on bad input", async () => {
    const agent = await createAgent({ name: "Before", description: "d", metadata: { team: "r&d", cost: "c1" } });
    const res = await call("POST", `/v1/spending_agents/${agent.id}`, {
      key: payer.key,
      body: { name: "After", description: null, metadata: { cost: "", region: "eu" } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: agent.id, name: "After", description: null, metadata: { team: "r&d", region: "eu" } });
    expect(res.body.metadata).not.toHaveProperty("cost");
    expect((await call("GET", `/v1/spending_agents/${agent.id}`, { key: payer.key })).body.name).toBe("After");
    expect((await call("POST", `/v1/spending_agents/${agent.id}`, { key: payer.key, body: { name: "" } })).status).toBe(400);
    expect((await call("POST", `/v1/spending_agents/${agent.id}`, { key: payer.key, body: { policy: {} } })).status).toBe(400);
  });

  it("DELETE detaches it: 404 after, gone from the list; a token still naming it is refused (spending_agent_deleted), not paid under the default", async () => {
    // A permissive default: falling back to it would let the token pay.
    expect((await call("POST", "/v1/spending_agents/default/policy", { key: payer.key, body: {} })).status).toBe(200);
    const w = privateKeyToAccount(generatePrivateKey());
    const agent = await createAgent({ name: "Short-lived", policy: DAILY_100, walletAddresses: [w.address] });
    const token = await call("POST", "/v1/shared_payment_tokens", {
      key: payer.key,
      body: { paymentMethod: "pm_card_visa", maxAmount: 1000, currency: "usd", spendingAgentId: agent.id },
    });
    expect(token.status).toBe(201);

    const deleted = await call("DELETE", `/v1/spending_agents/${agent.id}`, { key: payer.key });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: agent.id, object: "spending_agent", deleted: true });
    expect((await call("GET", `/v1/spending_agents/${agent.id}`, { key: payer.key })).status).toBe(404);
    expect((await call("DELETE", `/v1/spending_agents/${agent.id}`, { key: payer.key })).status).toBe(404);
    expect((await call("POST", `/v1/spending_agents/${agent.id}/policy`, { key: payer.key, body: {} })).status).toBe(404);
    const list = await call("GET", "/v1/spending_agents?limit=100", { key: payer.key });
    expect(list.body.data.map((a: { id: string }) => a.id)).not.toContain(agent.id);

    const before = await shopPayments();
    const redeemed = await call("POST", `/v1/shared_payment_tokens/${token.body.id}/redeem`, {
      key: shop.testKey,
      body: { amount: 10, currency: "usd" },
    });
    expectRefused(redeemed, "spending_agent_deleted", agent.id);
    expect(await shopPayments()).toBe(before);
    // A new credential cannot name it; its wallet address is free for another agent.
    const again = await call("POST", "/v1/shared_payment_tokens", {
      key: payer.key,
      body: { paymentMethod: "pm_card_visa", maxAmount: 1000, currency: "usd", spendingAgentId: agent.id },
    });
    expect(again.status).toBe(404);
    expect((await createAgent({ name: "Heir", walletAddresses: [w.address] })).walletAddresses).toEqual([w.address.toLowerCase()]);
  });
});

describe("wallet proof of control (EIP-191 personal_sign, checked with viem)", () => {
  const challenge = (key: string, agentId: string, address: string) =>
    call("POST", `/v1/spending_agents/${agentId}/wallet_challenges`, { key, body: { address } });
  const prove = (key: string, agentId: string, challengeId: string, signature: string) =>
    call("POST", `/v1/spending_agents/${agentId}/wallets`, { key, body: { challengeId, signature } });

  it("live: listing an address unproved is 400 wallet_proof_required; a signed challenge adds it once; a wrong signer is 400; a taken address 409", async () => {
    const live = await createTestMerchant("live wallet payer");
    const account = privateKeyToAccount(generatePrivateKey());
    const refused = await call("POST", "/v1/spending_agents", {
      key: live.liveKey,
      body: { name: "x", walletAddresses: [account.address] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.reason).toBe("wallet_proof_required");

    const agent = await createAgent({ name: "Live wallet agent" }, live.liveKey);
    const issued = await challenge(live.liveKey, agent.id, account.address);
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    expect(issued.body).toMatchObject({
      id: expect.stringMatching(/^swc_/),
      object: "wallet_challenge",
      spendingAgentId: agent.id,
      address: account.address.toLowerCase(),
      livemode: true,
    });
    expect(issued.body.message).toContain(account.address.toLowerCase());

    // Signed by another key: refused, and the challenge stays usable.
    const impostor = privateKeyToAccount(generatePrivateKey());
    const wrong = await prove(live.liveKey, agent.id, issued.body.id, await impostor.signMessage({ message: issued.body.message }));
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details.reason).toBe("wallet_signature_invalid");

    const signature = await account.signMessage({ message: issued.body.message });
    const proved = await prove(live.liveKey, agent.id, issued.body.id, signature);
    expect(proved.status, JSON.stringify(proved.body)).toBe(200);
    expect(proved.body).toMatchObject({ id: agent.id, walletAddresses: [account.address.toLowerCase()], livemode: true });
    expect(
      await getDb().spendingAgentWallet.findUnique({
        where: { livemode_address: { livemode: true, address: account.address.toLowerCase() } },
      }),
    ).toMatchObject({ spendingAgentId: agent.id });
    // The challenge proves once.
    expect((await prove(live.liveKey, agent.id, issued.body.id, signature)).status).toBe(404);

    // Another live agent proving the same address: 409, nothing changed.
    const second = await createAgent({ name: "Second" }, live.liveKey);
    const c2 = await challenge(live.liveKey, second.id, account.address);
    const taken = await prove(live.liveKey, second.id, c2.body.id, await account.signMessage({ message: c2.body.message }));
    expect(taken.status).toBe(409);
    expect(taken.body.error.details.reason).toBe("wallet_address_taken");
    expect((await call("GET", `/v1/spending_agents/${second.id}`, { key: live.liveKey })).body.walletAddresses).toEqual([]);
  });

  it("a challenge is the agent's own: another agent's challenge id, or another payer's agent, is 404; a bad address 400", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const [a, b] = [await createAgent({ name: "A" }), await createAgent({ name: "B" })];
    const issued = await challenge(payer.key, a.id, account.address);
    const signature = await account.signMessage({ message: issued.body.message });
    expect((await prove(payer.key, b.id, issued.body.id, signature)).status).toBe(404);
    expect((await challenge(shop.testKey, a.id, account.address)).status).toBe(404);
    expect((await challenge(payer.key, a.id, "0x1234")).status).toBe(400);
    expect((await prove(payer.key, a.id, issued.body.id, "0xnothex")).status).toBe(400);
  });
});
