// The card-network payments beyond the protocol paths (docs/cards.md): a checkout that requires a verified agent
// refuses the API capture and the hosted card form and takes a signed agent payment; the payment's dashboard page
// shows the verified agent; /v1/integrations lists visa and mastercard.
import { createHmac } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { signAgentRequest, type AgentPrivateJwk } from "agent-payments-sdk";
import { dashboardMerchant, dashboardPage, type DashboardMerchant } from "../helpers/dashboard";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { openCheckout, tick } from "../helpers/payments";
import { startReceiver } from "../helpers/webhook-receiver";
import { TEST_SECRETS_KEY } from "../helpers/server";
import { registerAgentKey } from "../helpers/agent-registration";

let payer: TestMerchant;
let shop: DashboardMerchant;
let shopId: string;
let agent: { id: string; keyid: string; signatureAgent: string; key: AgentPrivateJwk };
beforeAll(async () => {
  payer = await createTestMerchant("agent provider (options)");
  shop = await dashboardMerchant("Shop requiring verified agents");
  const res = await registerAgentKey("mastercard", payer.testKey, { name: "agent" });
  agent = { ...res.body, key: res.key };
  shopId = await merchantIdOf((await openCheckout(shop.key, { amount: 1 })).id);
});

async function merchantIdOf(checkoutId: string): Promise<string> {
  const { getDb } = await import("../../lib/db");
  return (await getDb().checkout.findUniqueOrThrow({ where: { id: checkoutId } })).merchantId;
}

function signed(path: string) {
  return signAgentRequest({
    method: "POST",
    url: `${baseUrl()}${path}`,
    privateJwk: agent.key,
    tag: "web-bot-auth",
    signatureAgent: agent.signatureAgent,
  }).headers;
}

async function tokenAndCode(maxUses = 3) {
  const token = await call("POST", "/mastercard/agentic_tokens", {
    key: payer.testKey,
    body: {
      paymentMethod: "pm_card_mastercard",
      agentKeyId: agent.id,
      merchantId: shopId,
      limits: { maxAmount: 10_000, currency: "usd", maxUses },
    },
  });
  expect(token.status).toBe(201);
  const path = `/mastercard/agentic_tokens/${token.body.id}/dtvc`;
  const code = await call("POST", path, { key: payer.testKey, headers: signed(path) });
  expect(code.status).toBe(200);
  return { token: token.body, dtvc: code.body.dtvc as string };
}

async function submitForm(checkoutId: string, cardNumber: string, cvc: string) {
  const key = createHmac("sha256", TEST_SECRETS_KEY).update("aps:pay-form-token:v1").digest();
  const now = Date.now();
  const formToken = `${now}.${createHmac("sha256", key).update(`${checkoutId}.${now}`).digest("base64url")}`;
  const res = await fetch(`${baseUrl()}/pay/${checkoutId}/submit`, {
    method: "POST",
    headers: { Origin: baseUrl(), Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ cardNumber, expiry: "12/40", cvc, name: "Buyer", billingCountry: "US", formToken }).toString(),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe("a checkout that requires a verified agent", () => {
  it("refuses the API capture and the hosted card form (nothing charged), and takes a signed agent payment", async () => {
    const checkout = await openCheckout(shop.key, { amount: 900, requireVerifiedAgent: true });
    expect(checkout.requireVerifiedAgent).toBe(true);
    const api = await call("POST", `/v1/checkouts/${checkout.id}/capture`, { key: shop.key, body: { paymentMethod: "pm_card_visa" } });
    expect(api.status).toBe(403);
    expect(api.body.error.details.reason).toBe("verified_agent_required");
    const { token, dtvc } = await tokenAndCode();
    const form = await submitForm(checkout.id, token.tokenNumber, dtvc);
    expect(form.status).toBe(400);
    const pi = await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key: shop.key });
    expect(pi.body).toMatchObject({ status: "requires_payment", amountCaptured: 0 });

    const fresh = await call("POST", `/mastercard/agentic_tokens/${token.id}/dtvc`, {
      key: payer.testKey,
      headers: signed(`/mastercard/agentic_tokens/${token.id}/dtvc`),
    });
    const path = `/mastercard/checkouts/${checkout.id}/pay`;
    const paid = await call("POST", path, {
      key: payer.testKey,
      headers: signed(path),
      body: { agenticToken: token.id, dtvc: fresh.body.dtvc },
    });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: "paid", source: "mastercard" });
  });

  it("without the option, unsigned payments keep working", async () => {
    const checkout = await openCheckout(shop.key, { amount: 300 });
    expect(checkout.requireVerifiedAgent).toBe(false);
    expect(
      (await call("POST", `/v1/checkouts/${checkout.id}/capture`, { key: shop.key, body: { paymentMethod: "pm_card_visa" } })).status,
    ).toBe(200);
  });

  it("a bad option value is the error contract", async () => {
    const res = await call("POST", "/v1/checkouts", { key: shop.key, body: { amount: 1, currency: "usd", requireVerifiedAgent: "yes" } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
  });
});

describe("the dashboard shows the verified agent", () => {
  it("the payment's page names the network, the agent key, the credential and 'Verified agent'", async () => {
    const checkout = await openCheckout(shop.key, { amount: 450 });
    const { token, dtvc } = await tokenAndCode();
    const path = `/mastercard/checkouts/${checkout.id}/pay`;
    expect((await call("POST", path, { key: payer.testKey, headers: signed(path), body: { agenticToken: token.id, dtvc } })).status).toBe(
      200,
    );
    const page = await dashboardPage(shop.session, `/dashboard/payments/${checkout.paymentIntentId}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('data-testid="payment-agent"');
    expect(page.html).toContain("Verified agent");
    expect(page.html).toContain(agent.id);
    expect(page.html).toContain(token.id);
    expect(page.html).toContain("Web Bot Auth");
  });
});

describe("the dashboard lists the agents seen on the merchant's payments", () => {
  it("/dashboard/agents names the paying agent (its key, name, network and protocol), its payments and when seen", async () => {
    const checkout = await openCheckout(shop.key, { amount: 300 });
    const { token, dtvc } = await tokenAndCode();
    const path = `/mastercard/checkouts/${checkout.id}/pay`;
    expect((await call("POST", path, { key: payer.testKey, headers: signed(path), body: { agenticToken: token.id, dtvc } })).status).toBe(
      200,
    );
    const page = await dashboardPage(shop.session, "/dashboard/agents");
    expect(page.status).toBe(200);
    expect(page.html).toContain('data-testid="agent-seen"');
    expect(page.html).toContain(`agent key ${agent.id}`);
    expect(page.html).toContain(`keyid ${agent.keyid}`);
    expect(page.html).toContain("Mastercard · Web Bot Auth");
    expect(page.html).toContain('href="/dashboard/agents"'); // in the sidebar
    // the page's data: one row per agent, scoped to the merchant that was paid (the payer has none)
    const { getDb } = await import("../../lib/db");
    const { listAgentsSeen } = await import("../../lib/dashboard/agents-seen");
    const seen = await listAgentsSeen(getDb(), { merchantId: shopId, livemode: false });
    const row = seen.find((a) => a.agentKeyId === agent.id && a.protocol === "web-bot-auth")!;
    expect(row).toMatchObject({ network: "mastercard", name: "agent", keyid: agent.keyid });
    expect(row.payments).toBeGreaterThanOrEqual(1);
    expect(row.verified).toBe(row.payments);
    expect(await listAgentsSeen(getDb(), { merchantId: payer.merchantId, livemode: false })).toEqual([]);
  });
});

describe("the webhook carries the agent", () => {
  it("payment_intent.captured as delivered to the merchant's endpoint has agent (verified, the atk_)", async () => {
    const receiver = await startReceiver();
    try {
      const endpoint = await call("POST", "/v1/webhook-endpoints", {
        key: shop.key,
        body: { url: receiver.url, enabledEvents: ["payment_intent.captured"] },
      });
      expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
      const checkout = await openCheckout(shop.key, { amount: 321 });
      const { token, dtvc } = await tokenAndCode();
      const path = `/mastercard/checkouts/${checkout.id}/pay`;
      expect((await call("POST", path, { key: payer.testKey, headers: signed(path), body: { agenticToken: token.id, dtvc } })).status).toBe(
        200,
      );
      const deadline = Date.now() + 20_000;
      const mine = () =>
        receiver.received.find((d) => d.event.type === "payment_intent.captured" && d.event.data.object.id === checkout.paymentIntentId);
      while (!mine() && Date.now() < deadline) {
        await tick();
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      expect(mine()?.event.data.object.agent).toMatchObject({
        network: "mastercard",
        protocol: "web-bot-auth",
        agentKeyId: agent.id,
        credentialId: token.id,
        verified: true,
      });
      expect(mine()?.event.data.object.source).toBe("mastercard");
    } finally {
      await receiver.close();
    }
  });
});

describe("/v1/integrations", () => {
  it("lists visa and mastercard with their addresses", async () => {
    const res = await call("GET", "/v1/integrations", { key: shop.key });
    const ids = res.body.data.map((e: any) => e.id);
    expect(ids).toEqual(expect.arrayContaining(["visa", "mastercard"]));
    const mc = res.body.data.find((e: any) => e.id === "mastercard");
    expect(mc.endpoints.pay).toBe(`${baseUrl()}/mastercard/checkouts/{id}/pay`);
    const visa = res.body.data.find((e: any) => e.id === "visa");
    expect(visa.endpoints.jwks).toBe(`${baseUrl()}/visa/.well-known/jwks`);
  });
});
