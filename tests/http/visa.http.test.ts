// Visa on a running server (docs/cards.md "Visa"): a full purchase from agent registration to a paid order, the
// TAP requests signed by the stock http-message-sig (browse agent-browser-auth, pay agent-payer-auth, the payment
// container signed by the same key and nonce), `agent` on the PaymentIntent and in its events; instructions with
// mandates and the test-mode passkey step; single-use credentials refused outside their mandate; every refusal
// with nothing charged; a credential pays exactly once under 50 concurrent attempts across two processes.
import { createSignature } from "http-message-sig";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { signAgentObject, signAgentRequest, type AgentPrivateJwk } from "agent-payments-sdk";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { allEvents, openCheckout } from "../helpers/payments";
import { startTestServer } from "../helpers/server";
import { registerAgentKey } from "../helpers/agent-registration";

let payer: TestMerchant;
let shop: TestMerchant;
let otherShop: TestMerchant;
beforeAll(async () => {
  payer = await createTestMerchant("visa agent provider");
  shop = await createTestMerchant("visa shop");
  otherShop = await createTestMerchant("another visa shop");
});

interface Agent {
  id: string;
  keyid: string;
  key: AgentPrivateJwk;
}

async function registerAgent(): Promise<Agent> {
  const res = await registerAgentKey("visa", payer.testKey, { name: "TAP agent" });
  expect(res.status).toBe(201);
  return { ...res.body, key: res.key };
}

/** TAP headers from the stock http-message-sig: label sig2, ("@authority" "@path"), window 8 minutes. */
async function tapSigned(
  agent: Agent,
  method: string,
  url: string,
  tag: string,
  nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(48))).toString("base64"),
) {
  const cryptoKey = await crypto.subtle.importKey("jwk", { ...agent.key, ext: true } as JsonWebKey, { name: "Ed25519" }, false, ["sign"]);
  const created = Math.floor(Date.now() / 1000);
  const fields = await createSignature(
    { kind: "request", method, targetUri: url, fields: [] },
    {
      label: "sig2",
      components: ["@authority", "@path"],
      parameters: { created, expires: created + 480, keyid: agent.keyid, alg: "ed25519", nonce, tag },
      signer: {
        algorithm: "ed25519",
        sign: async (data) => new Uint8Array(await crypto.subtle.sign("Ed25519", cryptoKey, data as Uint8Array<ArrayBuffer>)),
      },
    },
  );
  return { headers: { "Signature-Input": fields.signatureInput, Signature: fields.signature }, nonce };
}

async function instruction(agent: Agent, mandate: Record<string, unknown> = {}, passkey = true) {
  const res = await call("POST", "/visa/instructions", {
    key: payer.testKey,
    body: {
      paymentMethod: "pm_card_visa",
      agentKeyId: agent.id,
      mandates: [
        {
          description: "Groceries",
          declineThreshold: { amount: 5000, currency: "usd" },
          effectiveUntilTime: new Date(Date.now() + 3600_000).toISOString(),
          merchantId: shop.merchantId,
          ...mandate,
        },
      ],
      ...(passkey
        ? {
            assuranceData: [
              { verificationMethod: "passkey", verificationResults: "verified", verificationTimestamp: new Date().toISOString() },
            ],
          }
        : {}),
    },
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function credential(agent: Agent, instructionId: string, body: Record<string, unknown> = {}, base = baseUrl()) {
  const path = `/visa/instructions/${instructionId}/credentials`;
  const { headers } = signAgentRequest({ method: "POST", url: `${base}${path}`, privateJwk: agent.key, tag: "credential-request" });
  return call("POST", path, {
    key: payer.testKey,
    base,
    headers,
    body: { merchantId: shop.merchantId, amount: 2000, currency: "usd", ...body },
  });
}

async function pay(
  agent: Agent,
  checkoutId: string,
  vtok: string,
  options: { base?: string; tag?: string; tamper?: (c: any) => any; containerNonce?: string } = {},
) {
  const base = options.base ?? baseUrl();
  const path = `/visa/checkouts/${checkoutId}/pay`;
  const { headers, nonce } = await tapSigned(agent, "POST", `${base}${path}`, options.tag ?? "agent-payer-auth");
  let container: any = signAgentObject({ payload: { paymentMethod: vtok } }, agent.key, options.containerNonce ?? nonce);
  if (options.tamper) container = options.tamper(container);
  return call("POST", path, { key: payer.testKey, base, headers, body: { agenticPaymentContainer: container } });
}

async function piOf(checkoutId: string) {
  const checkout = await call("GET", `/v1/checkouts/${checkoutId}`, { key: shop.testKey });
  return (await call("GET", `/v1/payment_intents/${checkout.body.paymentIntentId}`, { key: shop.testKey })).body;
}

async function expectUnpaid(checkoutId: string) {
  expect((await piOf(checkoutId)).status).toBe("requires_payment");
}

describe("a full Visa purchase", () => {
  it("register -> instruction (passkey) -> browse -> credential -> TAP-signed pay -> confirmation; agent on the PaymentIntent and its events", async () => {
    const agent = await registerAgent();
    const vi = await instruction(agent);
    expect(vi).toMatchObject({ object: "visa_instruction", status: "active", agentKeyId: agent.id });
    expect(vi.id).toMatch(/^vi_/);
    const checkout = await openCheckout(shop.testKey, { amount: 1500 });

    const browsePath = `/visa/checkouts/${checkout.id}`;
    const browse = await tapSigned(agent, "GET", `${baseUrl()}${browsePath}`, "agent-browser-auth");
    const terms = await call("GET", browsePath, { key: payer.testKey, headers: browse.headers });
    expect(terms.status).toBe(200);
    expect(terms.body).toMatchObject({ id: checkout.id, amount: 1500, currency: "USD", merchantId: shop.merchantId, status: "open" });

    const cred = await credential(agent, vi.id);
    expect(cred.status).toBe(201);
    expect(cred.body).toMatchObject({
      object: "visa_credential",
      status: "active",
      merchantId: shop.merchantId,
      amount: 2000,
      currency: "USD",
      instructionId: vi.id,
    });
    expect(cred.body.id).toMatch(/^vtok_/);
    expect(typeof cred.body.cryptogram).toBe("string");

    const res = await pay(agent, checkout.id, cred.body.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: "order", status: "paid", amount: 1500, source: "visa" });
    const pi = await piOf(checkout.id);
    expect(pi).toMatchObject({ status: expect.stringMatching(/^(captured|settled)$/), source: "visa", paymentMethod: "pm_card_visa" });
    expect(pi.agent).toMatchObject({
      network: "visa",
      protocol: "tap",
      agentKeyId: agent.id,
      keyid: agent.keyid,
      tag: "agent-payer-auth",
      credentialId: cred.body.id,
      verified: true,
    });
    const captured = (await allEvents(shop.testKey)).find((e) => e.type === "payment_intent.captured" && e.data.object.id === pi.id);
    expect(captured.data.object.agent).toMatchObject({ network: "visa", credentialId: cred.body.id, verified: true });

    const confirmation = await call("POST", `/visa/instructions/${vi.id}/confirmations`, {
      key: payer.testKey,
      body: { credentialId: cred.body.id, status: "completed" },
    });
    expect(confirmation.body).toMatchObject({
      object: "visa_confirmation",
      status: "completed",
      credential: { status: "used", paymentIntentId: pi.id, confirmation: "completed" },
    });
    expect((await call("POST", "/v1/refunds", { key: shop.testKey, body: { paymentIntentId: pi.id } })).status).toBe(201);
  });

  it("the passkey step: an instruction without assurance is pending (no credentials) until approved", async () => {
    const agent = await registerAgent();
    const vi = await instruction(agent, {}, false);
    expect(vi).toMatchObject({ status: "pending_authentication", pendingEvents: ["passkey_authentication"] });
    const early = await credential(agent, vi.id);
    expect(early.status).toBe(402);
    expect(early.body.error.details.reason).toBe("instruction_not_active");
    expect(
      (await call("POST", `/visa/instructions/${vi.id}/authenticate`, { key: payer.testKey, body: { result: "approved" } })).body.status,
    ).toBe("active");
    expect((await credential(agent, vi.id)).status).toBe(201);
    expect(
      (await call("POST", `/visa/instructions/${vi.id}/authenticate`, { key: payer.testKey, body: { result: "approved" } })).status,
    ).toBe(409);
  });
});

describe("refusals: nothing charged", () => {
  it("mandate exceeded, mandate expired, merchant not allowed", async () => {
    const agent = await registerAgent();
    const vi = await instruction(agent);
    expect((await credential(agent, vi.id, { amount: 5001 })).body.error.details.reason).toBe("mandate_exceeded");
    expect((await credential(agent, vi.id, { merchantId: otherShop.merchantId })).body.error.details.reason).toBe("merchant_not_allowed");
    const old = await instruction(agent, { effectiveUntilTime: new Date(Date.now() - 1000).toISOString() });
    const res = await credential(agent, old.id);
    expect(res.status).toBe(402);
    expect(res.body.error.details.reason).toBe("mandate_expired");
  });

  it("a mandate that expires after the credential was drawn: the payment is refused", async () => {
    const agent = await registerAgent();
    const vi = await instruction(agent);
    const cred = await credential(agent, vi.id);
    await getDb()
      .$executeRaw`UPDATE visa_instructions SET mandates = jsonb_set(mandates, '{0,effectiveUntilTime}', to_jsonb(${new Date(Date.now() - 1000).toISOString()}::text)) WHERE id = ${vi.id}`;
    const checkout = await openCheckout(shop.testKey, { amount: 100 });
    const res = await pay(agent, checkout.id, cred.body.id);
    expect(res.body.error.details.reason).toBe("mandate_expired");
    await expectUnpaid(checkout.id);
  });

  it("a used credential, an expired one, one of another merchant, over its amount", async () => {
    const agent = await registerAgent();
    const vi = await instruction(agent);
    const cred = await credential(agent, vi.id);
    const first = await openCheckout(shop.testKey, { amount: 100 });
    expect((await pay(agent, first.id, cred.body.id)).status).toBe(200);
    const second = await openCheckout(shop.testKey, { amount: 100 });
    const used = await pay(agent, second.id, cred.body.id);
    expect(used.status).toBe(402);
    expect(used.body.error.details.reason).toBe("credential_used");

    const big = await openCheckout(shop.testKey, { amount: 2001 });
    const c2 = await credential(agent, vi.id);
    expect((await pay(agent, big.id, c2.body.id)).body.error.details.reason).toBe("credential_amount_exceeded");
    const elsewhere = await openCheckout(otherShop.testKey, { amount: 100 });
    expect((await pay(agent, elsewhere.id, c2.body.id)).body.error.details.reason).toBe("credential_merchant_mismatch");
    await getDb().$executeRaw`UPDATE visa_credentials SET expires_at = now() - interval '1 second' WHERE id = ${c2.body.id}`;
    expect((await pay(agent, second.id, c2.body.id)).body.error.details.reason).toBe("credential_expired");
    await expectUnpaid(second.id);
    await expectUnpaid(big.id);
  });

  it("browse tag on pay: tag_operation_mismatch", async () => {
    const agent = await registerAgent();
    const vi = await instruction(agent);
    const cred = await credential(agent, vi.id);
    const checkout = await openCheckout(shop.testKey, { amount: 100 });
    const res = await pay(agent, checkout.id, cred.body.id, { tag: "agent-browser-auth" });
    expect(res.status).toBe(403);
    expect(res.body.error.details.reason).toBe("tag_operation_mismatch");
    await expectUnpaid(checkout.id);
  });

  it("altered body object: object_bad_signature; another nonce: object_nonce_mismatch", async () => {
    const agent = await registerAgent();
    const vi = await instruction(agent);
    const cred = await credential(agent, vi.id);
    const other = await credential(agent, vi.id);
    const checkout = await openCheckout(shop.testKey, { amount: 100 });
    const altered = await pay(agent, checkout.id, cred.body.id, { tamper: (c) => ({ ...c, payload: { paymentMethod: other.body.id } }) });
    expect(altered.status).toBe(403);
    expect(altered.body.error.details.reason).toBe("object_bad_signature");
    const mismatch = await pay(agent, checkout.id, cred.body.id, { containerNonce: "another-nonce" });
    expect(mismatch.body.error.details.reason).toBe("object_nonce_mismatch");
    await expectUnpaid(checkout.id);
  });

  it("revoked key: revoked_key", async () => {
    const agent = await registerAgent();
    const vi = await instruction(agent);
    const cred = await credential(agent, vi.id);
    await call("POST", `/visa/agents/${agent.id}/revoke`, { key: payer.testKey });
    const checkout = await openCheckout(shop.testKey, { amount: 100 });
    expect((await pay(agent, checkout.id, cred.body.id)).body.error.details.reason).toBe("revoked_key");
    await expectUnpaid(checkout.id);
  });
});

describe("bad input on every /visa path: the error contract, never a 500", () => {
  const cases: [string, string, unknown, number][] = [
    ["POST", "/visa/instructions", {}, 400],
    ["POST", "/visa/instructions", { paymentMethod: "pm_card_visa", agentKeyId: "agk_x", mandates: [] }, 400],
    [
      "POST",
      "/visa/instructions",
      {
        paymentMethod: "pm_card_visa",
        agentKeyId: "agk_x",
        mandates: [{ description: "x", declineThreshold: { amount: 1, currency: "usd" }, effectiveUntilTime: "soon" }],
      },
      400,
    ],
    [
      "POST",
      "/visa/instructions",
      {
        paymentMethod: "pm_card_visa",
        agentKeyId: "agk_x",
        mandates: [{ description: "x", declineThreshold: { amount: 1, currency: "usd" }, effectiveUntilTime: "2030-01-01T00:00:00Z" }],
      },
      404,
    ],
    ["POST", "/visa/instructions", "{", 400],
    ["GET", "/visa/instructions?limit=x", undefined, 400],
    ["GET", "/visa/instructions/vi_missing", undefined, 404],
    ["POST", "/visa/instructions/vi_missing/authenticate", { result: "maybe" }, 400],
    ["POST", "/visa/instructions/vi_missing/cancel", undefined, 404],
    ["POST", "/visa/instructions/vi_missing/credentials", { merchantId: "x" }, 400],
    ["POST", "/visa/instructions/vi_missing/confirmations", { credentialId: "vtok_x", status: "done" }, 400],
    ["POST", "/visa/checkouts/cs_missing/pay", { agenticPaymentContainer: "x" }, 400],
    ["POST", "/visa/checkouts/cs_missing/pay", { other: 1 }, 400],
    ["GET", "/visa/checkouts/cs_missing", undefined, 401],
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

describe("a vtok_ pays exactly once: 50 concurrent attempts across two server processes", () => {
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    servers.push(await startTestServer({ RATE_LIMIT_MAX: "10000" }), await startTestServer({ RATE_LIMIT_MAX: "10000" }));
  }, 120_000);
  afterAll(() => Promise.all(servers.map((s) => s.stop())));

  it("one payment, every other attempt refused, one rail charge", async () => {
    const agent = await registerAgent();
    const vi = await instruction(agent);
    const cred = await credential(agent, vi.id);
    const checkouts = await Promise.all(Array.from({ length: 50 }, () => openCheckout(shop.testKey, { amount: 300 })));
    const results = await Promise.all(checkouts.map((checkout, i) => pay(agent, checkout.id, cred.body.id, { base: servers[i % 2].url })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.every((s) => s === 200 || s === 402 || s === 409)).toBe(true);
    const rows = await getDb().$queryRaw<
      { n: bigint }[]
    >`SELECT count(*) AS n FROM payment_intents WHERE agent->>'credentialId' = ${cred.body.id} AND status IN ('captured', 'settled')`; // another file's tick may have settled it
    expect(Number(rows[0].n)).toBe(1);
    const charged = await getDb().$queryRaw<
      { n: bigint }[]
    >`SELECT count(*) AS n FROM test_rail_charges WHERE charge_key LIKE ${`${cred.body.id}:%`} AND status = 'succeeded'`;
    expect(Number(charged[0].n)).toBe(1);
  });
});
