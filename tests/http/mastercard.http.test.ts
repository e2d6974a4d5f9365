// Mastercard Agent Pay on a running server (docs/cards.md "Mastercard"): from agent registration to a paid order
// with the stock web-bot-auth signer (its README's way, covering @method and @path too), `agent` on the
// PaymentIntent and in its events, refunds as usual; every refusal with nothing charged; an agentic token pays
// exactly once under 50 concurrent attempts across two server processes.
import { signatureHeaders } from "web-bot-auth";
import { signerFromJWK } from "web-bot-auth/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import type { AgentPrivateJwk } from "agent-payments-sdk";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { allEvents, openCheckout } from "../helpers/payments";
import { rawRequest } from "../helpers/raw-request";
import { startTestServer } from "../helpers/server";
import { registerAgentKey } from "../helpers/agent-registration";

let payer: TestMerchant;
let shop: TestMerchant;
let otherShop: TestMerchant;
beforeAll(async () => {
  payer = await createTestMerchant("mastercard agent provider");
  shop = await createTestMerchant("mastercard shop");
  otherShop = await createTestMerchant("another shop");
});

interface Agent {
  id: string;
  keyid: string;
  signatureAgent: string;
  key: AgentPrivateJwk;
}

async function registerAgent(name = "Shopping agent"): Promise<Agent> {
  const res = await registerAgentKey("mastercard", payer.testKey, { name });
  expect(res.status).toBe(201);
  return { ...res.body, key: res.key };
}

/** Web Bot Auth headers from the stock signer for a request to `base + path` (Signature-Agent on that origin). */
async function signed(
  agent: Agent,
  path: string,
  options: { base?: string; method?: string; created?: Date; signatureAgent?: string } = {},
) {
  const base = options.base ?? baseUrl();
  const sa = `sig1="${options.signatureAgent ?? agent.signatureAgent.replace(/^https?:\/\/[^/]+/, base)}"`;
  const method = options.method ?? "POST";
  const request = new Request(`${base}${path}`, { method, headers: { "Signature-Agent": sa } });
  const created = options.created ?? new Date();
  const h = await signatureHeaders(request, await signerFromJWK(agent.key), {
    created,
    expires: new Date(created.getTime() + 300_000),
    components: ["@authority", "signature-agent", "@method", "@path"],
  });
  return { "Signature-Agent": sa, Signature: h.Signature, "Signature-Input": h["Signature-Input"] };
}

async function issueToken(agent: Agent, limits: Record<string, unknown> = {}, merchantId = shop.merchantId) {
  const res = await call("POST", "/mastercard/agentic_tokens", {
    key: payer.testKey,
    body: {
      paymentMethod: "pm_card_mastercard",
      agentKeyId: agent.id,
      merchantId,
      limits: { maxAmount: 5000, currency: "usd", ...limits },
    },
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function code(agent: Agent, tokenId: string, base?: string) {
  const path = `/mastercard/agentic_tokens/${tokenId}/dtvc`;
  const res = await call("POST", path, { key: payer.testKey, base, headers: await signed(agent, path, { base }) });
  expect(res.status).toBe(200);
  return res.body.dtvc as string;
}

async function pay(agent: Agent, checkoutId: string, body: Record<string, unknown>, base?: string) {
  const path = `/mastercard/checkouts/${checkoutId}/pay`;
  return call("POST", path, { key: payer.testKey, base, body, headers: await signed(agent, path, { base }) });
}

async function piOf(checkoutId: string) {
  const checkout = await call("GET", `/v1/checkouts/${checkoutId}`, { key: shop.testKey });
  return (await call("GET", `/v1/payment_intents/${checkout.body.paymentIntentId}`, { key: shop.testKey })).body;
}

describe("a full purchase", () => {
  it("registration -> agentic token -> code -> signed payment: a paid order with `agent`, in the events too; refundable", async () => {
    const agent = await registerAgent();
    const token = await issueToken(agent);
    expect(token).toMatchObject({
      object: "agentic_token",
      network: "mastercard",
      status: "active",
      agentKeyId: agent.id,
      merchantId: shop.merchantId,
      remainingAmount: 5000,
      usesRemaining: 1,
    });
    expect(token.id).toMatch(/^atk_/);
    expect(token.tokenNumber).toMatch(/^5\d{15}$/);
    const checkout = await openCheckout(shop.testKey, { amount: 1234 });
    const dtvc = await code(agent, token.id);
    expect(dtvc).toMatch(/^\d{3}$/);
    const res = await pay(agent, checkout.id, { agenticToken: token.id, dtvc });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: "order", status: "paid", amount: 1234, source: "mastercard" });
    const pi = await piOf(checkout.id);
    expect(pi).toMatchObject({
      status: expect.stringMatching(/^(captured|settled)$/),
      source: "mastercard",
      paymentMethod: "pm_card_mastercard",
    });
    expect(pi.agent).toMatchObject({
      network: "mastercard",
      protocol: "web-bot-auth",
      agentKeyId: agent.id,
      keyid: agent.keyid,
      tag: "web-bot-auth",
      credentialId: token.id,
      verified: true,
    });
    expect(pi.agent.signatureAgent).toMatch(new RegExp(`/mastercard/agents/${agent.id}/directory$`));
    const events = (await allEvents(shop.testKey)).filter((e) => e.data.object.id === pi.id);
    const captured = events.find((e) => e.type === "payment_intent.captured");
    expect(captured.data.object.agent).toMatchObject({ network: "mastercard", credentialId: token.id, verified: true });
    expect((await call("GET", `/mastercard/agentic_tokens/${token.id}`, { key: payer.testKey })).body).toMatchObject({
      status: "exhausted",
      usesRemaining: 0,
      remainingAmount: 5000 - 1234,
    });
    const refund = await call("POST", "/v1/refunds", { key: shop.testKey, body: { paymentIntentId: pi.id } });
    expect(refund.status).toBe(201);
    const listed = await call("GET", "/v1/payment_intents?source=mastercard", { key: shop.testKey });
    expect(listed.body.data.map((p: any) => p.id)).toContain(pi.id);
  });
});

describe("refusals: nothing charged", () => {
  async function expectUnpaid(checkoutId: string) {
    const pi = await piOf(checkoutId);
    expect(pi.status).toBe("requires_payment");
    expect(pi.amountCaptured).toBe(0);
  }

  it("token of another merchant: token_merchant_mismatch", async () => {
    const agent = await registerAgent();
    const token = await issueToken(agent, {}, otherShop.merchantId);
    const checkout = await openCheckout(shop.testKey);
    const res = await pay(agent, checkout.id, { agenticToken: token.id, dtvc: await code(agent, token.id) });
    expect(res.status).toBe(402);
    expect(res.body.error.details.reason).toBe("token_merchant_mismatch");
    await expectUnpaid(checkout.id);
  });

  it("used code, wrong code, expired code: dtvc_invalid", async () => {
    const agent = await registerAgent();
    const token = await issueToken(agent, { maxUses: 3 });
    const first = await openCheckout(shop.testKey, { amount: 100 });
    const dtvc = await code(agent, token.id);
    expect((await pay(agent, first.id, { agenticToken: token.id, dtvc })).status).toBe(200);
    const second = await openCheckout(shop.testKey, { amount: 100 });
    const used = await pay(agent, second.id, { agenticToken: token.id, dtvc });
    expect(used.status).toBe(402);
    expect(used.body.error.details.reason).toBe("dtvc_invalid");
    const fresh = await code(agent, token.id);
    const wrong = await pay(agent, second.id, { agenticToken: token.id, dtvc: fresh === "000" ? "001" : "000" });
    expect(wrong.body.error.details.reason).toBe("dtvc_invalid");
    await getDb().$executeRaw`UPDATE agentic_token_codes SET expires_at = now() - interval '1 second' WHERE token_id = ${token.id}`;
    const expired = await pay(agent, second.id, { agenticToken: token.id, dtvc: fresh });
    expect(expired.status).toBe(402);
    expect(expired.body.error.details.reason).toBe("dtvc_invalid");
    await expectUnpaid(second.id);
  });

  it("over the token's amount: token_limit_exceeded; revoked token: token_revoked", async () => {
    const agent = await registerAgent();
    const token = await issueToken(agent, { maxAmount: 500 });
    const checkout = await openCheckout(shop.testKey, { amount: 501 });
    const over = await pay(agent, checkout.id, { agenticToken: token.id, dtvc: await code(agent, token.id) });
    expect(over.body.error.details.reason).toBe("token_limit_exceeded");
    const dtvc = await code(agent, token.id);
    expect((await call("POST", `/mastercard/agentic_tokens/${token.id}/revoke`, { key: payer.testKey })).body.status).toBe("revoked");
    const small = await openCheckout(shop.testKey, { amount: 100 });
    const revoked = await pay(agent, small.id, { agenticToken: token.id, dtvc });
    expect(revoked.body.error.details.reason).toBe("token_revoked");
    await expectUnpaid(small.id);
  });

  it("pending agent: agent_not_verified (no code, no payment)", async () => {
    const agent = await registerAgent("pending_agent");
    const token = await issueToken(agent);
    const path = `/mastercard/agentic_tokens/${token.id}/dtvc`;
    const res = await call("POST", path, { key: payer.testKey, headers: await signed(agent, path) });
    expect(res.status).toBe(403);
    expect(res.body.error.details.reason).toBe("agent_not_verified");
    const checkout = await openCheckout(shop.testKey);
    const paid = await pay(agent, checkout.id, { agenticToken: token.id, dtvc: "123" });
    expect(paid.body.error.details.reason).toBe("agent_not_verified");
    await expectUnpaid(checkout.id);
  });

  it("revoked agent key: revoked_key", async () => {
    const agent = await registerAgent();
    const token = await issueToken(agent);
    const dtvc = await code(agent, token.id);
    await call("POST", `/mastercard/agents/${agent.id}/revoke`, { key: payer.testKey });
    const checkout = await openCheckout(shop.testKey);
    const res = await pay(agent, checkout.id, { agenticToken: token.id, dtvc });
    expect(res.status).toBe(403);
    expect(res.body.error.details.reason).toBe("revoked_key");
    await expectUnpaid(checkout.id);
  });

  it("another agent's key signing for the token: agent_key_mismatch", async () => {
    const owner = await registerAgent();
    const other = await registerAgent();
    const token = await issueToken(owner);
    const dtvc = await code(owner, token.id);
    const checkout = await openCheckout(shop.testKey);
    const res = await pay(other, checkout.id, { agenticToken: token.id, dtvc });
    expect(res.body.error.details.reason).toBe("agent_key_mismatch");
    await expectUnpaid(checkout.id);
  });

  it("other authority: a request signed for and sent to another Host is authority_mismatch", async () => {
    const agent = await registerAgent();
    const token = await issueToken(agent);
    const dtvc = await code(agent, token.id);
    const checkout = await openCheckout(shop.testKey);
    const path = `/mastercard/checkouts/${checkout.id}/pay`;
    const headers = await signed(agent, path, { base: "http://shop.example" });
    const res = await rawRequest(baseUrl(), "POST", path, {
      headers: { ...headers, Host: "shop.example", Authorization: `Bearer ${payer.testKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ agenticToken: token.id, dtvc }),
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text).error.details.reason).toBe("authority_mismatch");
    await expectUnpaid(checkout.id);
  });

  it("a replayed signed payment (two in parallel): one pays, the other is replayed_nonce", async () => {
    const agent = await registerAgent();
    const token = await issueToken(agent, { maxUses: 5 });
    const dtvc = await code(agent, token.id);
    const checkout = await openCheckout(shop.testKey);
    const path = `/mastercard/checkouts/${checkout.id}/pay`;
    const headers = await signed(agent, path);
    const send = () => call("POST", path, { key: payer.testKey, headers, body: { agenticToken: token.id, dtvc } });
    const results = await Promise.all([send(), send()]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 403]);
    expect(results.find((r) => r.status === 403)!.body.error.details.reason).toBe("replayed_nonce");
  });

  it("unsigned: 401 missing_signature; a code for an unsigned request too", async () => {
    const agent = await registerAgent();
    const token = await issueToken(agent);
    const checkout = await openCheckout(shop.testKey);
    const res = await call("POST", `/mastercard/checkouts/${checkout.id}/pay`, {
      key: payer.testKey,
      body: { agenticToken: token.id, dtvc: "123" },
    });
    expect(res.status).toBe(401);
    expect(res.body.error.details.reason).toBe("missing_signature");
    expect((await call("POST", `/mastercard/agentic_tokens/${token.id}/dtvc`, { key: payer.testKey })).body.error.details.reason).toBe(
      "missing_signature",
    );
  });
});

describe("bad input on every /mastercard path: the error contract, never a 500", () => {
  const cases: [string, string, unknown, number][] = [
    ["POST", "/mastercard/agentic_tokens", {}, 400],
    [
      "POST",
      "/mastercard/agentic_tokens",
      { paymentMethod: "pm_card_mastercard", agentKeyId: "agk_x", merchantId: "mer_x", limits: { maxAmount: -1, currency: "usd" } },
      400,
    ],
    [
      "POST",
      "/mastercard/agentic_tokens",
      { paymentMethod: "pm_nope", agentKeyId: "agk_x", merchantId: "mer_x", limits: { maxAmount: 1, currency: "usd" } },
      400,
    ],
    [
      "POST",
      "/mastercard/agentic_tokens",
      { paymentMethod: "pm_card_mastercard", agentKeyId: "agk_x", merchantId: "mer_x", limits: { maxAmount: 1, currency: "usd" } },
      404,
    ],
    ["POST", "/mastercard/agentic_tokens", "{", 400],
    ["GET", "/mastercard/agentic_tokens?limit=500", undefined, 400],
    ["GET", "/mastercard/agentic_tokens/atk_missing", undefined, 404],
    ["POST", "/mastercard/agentic_tokens/atk_missing/revoke", undefined, 404],
    ["POST", "/mastercard/checkouts/cs_missing/pay", { agenticToken: "atk_x", dtvc: "12" }, 400],
    ["POST", "/mastercard/checkouts/cs_missing/pay", { agenticToken: "nope", dtvc: "123" }, 400],
    ["POST", "/mastercard/checkouts/cs_missing/pay", [], 400],
  ];
  for (const [method, path, body, status] of cases) {
    it(`${method} ${path} ${JSON.stringify(body) ?? ""} -> ${status}`, async () => {
      const res = await call(method, path, {
        key: payer.testKey,
        ...(typeof body === "string"
          ? { rawBody: body, headers: { "content-type": "application/json" } }
          : body === undefined
            ? {}
            : { body }),
      });
      expect(res.status).toBe(status);
      expect(Object.keys(res.body.error).sort()).toEqual(["code", "details", "message"]);
    });
  }
});

describe("an agentic token pays exactly once: 50 concurrent attempts across two server processes", () => {
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    servers.push(await startTestServer({ RATE_LIMIT_MAX: "10000" }), await startTestServer({ RATE_LIMIT_MAX: "10000" }));
  }, 120_000);
  afterAll(() => Promise.all(servers.map((s) => s.stop())));

  it("one payment, every other attempt refused, nothing else charged", async () => {
    const agent = await registerAgent();
    const token = await issueToken(agent, { maxUses: 1 });
    const dtvc = await code(agent, token.id, servers[0].url);
    const checkouts = await Promise.all(Array.from({ length: 50 }, () => openCheckout(shop.testKey, { amount: 200 })));
    const requests = await Promise.all(
      checkouts.map(async (checkout, i) => {
        const base = servers[i % 2].url;
        const path = `/mastercard/checkouts/${checkout.id}/pay`;
        return { base, path, headers: await signed(agent, path, { base }) };
      }),
    );
    const results = await Promise.all(
      requests.map((r) =>
        call("POST", r.path, { key: payer.testKey, base: r.base, headers: r.headers, body: { agenticToken: token.id, dtvc } }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.every((s) => s === 200 || s === 402 || s === 409)).toBe(true);
    const rows = await getDb().$queryRaw<
      { n: bigint }[]
    >`SELECT count(*) AS n FROM payment_intents WHERE agent->>'credentialId' = ${token.id} AND status IN ('captured', 'settled')`; // another file's tick may have settled it
    expect(Number(rows[0].n)).toBe(1);
    const charged = await getDb().$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM test_rail_charges WHERE charge_key LIKE ${`${token.id}:%`} AND status = 'succeeded'`;
    expect(Number(charged[0].n)).toBe(1);
  });
});

describe("the hosted /pay card form: token number as the card number, the code as the CVC", () => {
  /** The pay page's form token, made as lib/pay/form-token.ts does under the test servers' key. */
  async function formToken(checkoutId: string) {
    const { createHmac } = await import("node:crypto");
    const { TEST_SECRETS_KEY } = await import("../helpers/server");
    const key = createHmac("sha256", TEST_SECRETS_KEY).update("aps:pay-form-token:v1").digest();
    const now = Date.now();
    return `${now}.${createHmac("sha256", key).update(`${checkoutId}.${now}`).digest("base64url")}`;
  }
  async function submit(checkoutId: string, cardNumber: string, cvc: string) {
    const body = new URLSearchParams({
      cardNumber,
      expiry: "12/40",
      cvc,
      name: "Agent Buyer",
      billingCountry: "US",
      formToken: await formToken(checkoutId),
    });
    const res = await fetch(`${baseUrl()}/pay/${checkoutId}/submit`, {
      method: "POST",
      headers: { Origin: baseUrl(), Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" },
      body: body.toString(),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  it("pays once with agent.verified false; a used code is refused on the form", async () => {
    const agent = await registerAgent();
    const token = await issueToken(agent, { maxUses: 2 });
    const checkout = await openCheckout(shop.testKey, { amount: 700 });
    const dtvc = await code(agent, token.id);
    const wrong = await submit(checkout.id, token.tokenNumber, dtvc === "999" ? "998" : "999");
    expect(wrong.status).toBe(400);
    expect(wrong.body.fieldErrors.cardNumber).toBeTruthy();
    // A wrong code voids the outstanding ones: the right one no longer pays, a fresh one does.
    expect((await submit(checkout.id, token.tokenNumber, dtvc)).status).toBe(400);
    const fresh = await code(agent, token.id);
    const paid = await submit(checkout.id, token.tokenNumber, fresh);
    expect(paid.body.redirect).toMatch(/status=success/);
    const pi = await piOf(checkout.id);
    expect(pi).toMatchObject({ status: expect.stringMatching(/^(captured|settled)$/), source: "mastercard", amount: 700 });
    expect(pi.agent).toMatchObject({ network: "mastercard", protocol: "card-form", credentialId: token.id, verified: false, keyid: null });
    const again = await openCheckout(shop.testKey, { amount: 100 });
    const used = await submit(again.id, token.tokenNumber, fresh);
    expect(used.status).toBe(400);
    await expectUnpaidPi(again.id);
  });

  /** A card number in the agentic tokens' range, Luhn-valid, that is no token. */
  function notAToken(): string {
    let body = "522222";
    while (body.length < 15) body += String(Math.floor(Math.random() * 10));
    let sum = 0;
    for (let i = 0; i < body.length; i++) {
      let d = Number(body[body.length - 1 - i]);
      if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      sum += d;
    }
    return body + String((10 - (sum % 10)) % 10);
  }

  it("a wrong token answers as a wrong card: an unknown number, a wrong code, a revoked token, another shop's token, alike", async () => {
    const agent = await registerAgent();
    const token = await issueToken(agent);
    const foreign = await issueToken(agent, {}, otherShop.merchantId);
    const revoked = await issueToken(agent);
    expect((await call("POST", `/mastercard/agentic_tokens/${revoked.id}/revoke`, { key: payer.testKey })).status).toBe(200);
    const checkout = await openCheckout(shop.testKey, { amount: 700 });
    const right = await code(agent, token.id);
    const answers = [
      await submit(checkout.id, notAToken(), "123"),
      await submit(checkout.id, token.tokenNumber, right === "123" ? "124" : "123"),
      await submit(checkout.id, revoked.tokenNumber, "123"),
      await submit(checkout.id, foreign.tokenNumber, await code(agent, foreign.id)),
    ];
    expect(answers[0].status).toBe(400);
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    await expectUnpaidPi(checkout.id);
    // On a checkout that is no longer open, a token and a made-up number get the same answer too.
    const paid = await openCheckout(shop.testKey, { amount: 300 });
    expect(
      (await call("POST", `/v1/checkouts/${paid.id}/capture`, { key: shop.testKey, body: { paymentMethod: "pm_card_visa" } })).status,
    ).toBe(200);
    const closed = [await submit(paid.id, notAToken(), "123"), await submit(paid.id, token.tokenNumber, "123")];
    expect(closed[1]).toEqual(closed[0]);
  });

  async function expectUnpaidPi(checkoutId: string) {
    expect((await piOf(checkoutId)).status).toBe("requires_payment");
  }
});
