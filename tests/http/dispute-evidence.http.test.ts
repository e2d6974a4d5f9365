// The agent evidence pack of a dispute (docs/disputes.md, "The evidence pack"; issue 36 item 3): a Mastercard Agent Pay
// payment with a verified Web Bot Auth signature and an AP2 purchase, each made with a dispute test instrument and
// disputed by the tick; the pack names the agent, its key id, the mandate and the receipt; its JWS verifies against
// /.well-known/jwks.json; the PDF parses (pdfjs-dist) and holds the key id and the PaymentIntent id; the merchant
// submits it with one action. Then item 5: the live rail's dispute webhook (a bad signature refused; a good one opens
// and decides a live dispute; an on-chain payment cannot be disputed).
import { randomUUID } from "node:crypto";
import { TaskState } from "@a2a-js/sdk";
import { generateTestHeader } from "agent-payments-sdk";
import type { AgentPrivateJwk } from "agent-payments-sdk";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { signatureHeaders } from "web-bot-auth";
import { signerFromJWK } from "web-bot-auth/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transaction } from "../../lib/db";
import { createScopedApiKey } from "../../lib/merchants/api-keys";
import { normalizePermissions } from "../../lib/merchants/permissions";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { a2aClient, agentBase, AP2_EXT, data, dataOf, send, text, userMessage } from "../helpers/a2a";
import { registerAgentKey } from "../helpers/agent-registration";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { checkV1Response, recordV1Response } from "../helpers/openapi-responses";
import { capture, openCheckout, sleep, tick } from "../helpers/payments";
import { startTestServer } from "../helpers/server";

let payer: TestMerchant;
let shop: TestMerchant;
let stranger: TestMerchant;
beforeAll(async () => {
  [payer, shop, stranger] = await Promise.all([
    createTestMerchant("evidence agent provider"),
    createTestMerchant("evidence shop"),
    createTestMerchant("someone else"),
  ]);
});

async function tickUntil(condition: () => Promise<boolean>, base?: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await tick(base);
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error("condition not met");
    await sleep(250);
  }
}

async function disputeOf(key: string, paymentIntentId: string, base?: string) {
  let found: any;
  await tickUntil(async () => {
    found = (await call("GET", `/v1/disputes?paymentIntentId=${paymentIntentId}`, { key, base })).body.data[0];
    return found !== undefined;
  }, base);
  return found;
}

const jwks = () => createRemoteJWKSet(new URL(`${baseUrl()}/.well-known/jwks.json`));

async function pdfText(key: string, pdfUrl: string): Promise<string> {
  const url = `${baseUrl()}${new URL(pdfUrl).pathname}`;
  const res = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  // Read as bytes, not through call(): recorded here as the documented success it is (tests/global-setup.ts).
  recordV1Response(checkV1Response("GET", url, res.status, "application/pdf", null));
  // verbosity 0: text extraction needs no standard font data, so pdfjs need not warn about its absence.
  const pdf = await getDocument({ data: new Uint8Array(await res.arrayBuffer()), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str : "")).join("\n"));
  }
  return pages.join("\n");
}

/** A Mastercard Agent Pay purchase signed by a registered agent, paid with an agentic token on `pm_card_createDispute`. */
async function mastercardPurchase() {
  const reg = await registerAgentKey("mastercard", payer.testKey, { name: "Evidence agent" });
  expect(reg.status).toBe(201);
  const agent = { ...reg.body, key: reg.key as AgentPrivateJwk };
  const signed = async (path: string) => {
    const sa = `sig1="${agent.signatureAgent.replace(/^https?:\/\/[^/]+/, baseUrl())}"`;
    const created = new Date();
    const h = await signatureHeaders(
      new Request(`${baseUrl()}${path}`, { method: "POST", headers: { "Signature-Agent": sa } }),
      await signerFromJWK(agent.key),
      { created, expires: new Date(created.getTime() + 300_000), components: ["@authority", "signature-agent", "@method", "@path"] },
    );
    return { "Signature-Agent": sa, Signature: h.Signature, "Signature-Input": h["Signature-Input"] };
  };
  const token = await call("POST", "/mastercard/agentic_tokens", {
    key: payer.testKey,
    body: {
      paymentMethod: "pm_card_createDispute",
      agentKeyId: agent.id,
      merchantId: shop.merchantId,
      limits: { maxAmount: 5000, currency: "usd" },
    },
  });
  expect(token.status).toBe(201);
  const checkout = await openCheckout(shop.testKey, { amount: 2345 });
  const dtvcPath = `/mastercard/agentic_tokens/${token.body.id}/dtvc`;
  const dtvc = await call("POST", dtvcPath, { key: payer.testKey, headers: await signed(dtvcPath) });
  expect(dtvc.status).toBe(200);
  const payPath = `/mastercard/checkouts/${checkout.id}/pay`;
  const paid = await call("POST", payPath, {
    key: payer.testKey,
    body: { agenticToken: token.body.id, dtvc: dtvc.body.dtvc },
    headers: await signed(payPath),
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return { agent, paymentIntentId: checkout.paymentIntentId as string, tokenId: token.body.id as string };
}

describe("the evidence pack of a Mastercard Agent Pay payment", () => {
  let purchase: Awaited<ReturnType<typeof mastercardPurchase>>;
  let dispute: any;
  beforeAll(async () => {
    purchase = await mastercardPurchase();
    dispute = await disputeOf(shop.testKey, purchase.paymentIntentId);
  });

  it("names the verified agent, its key id and the receipt; its JWS verifies against /.well-known/jwks.json", async () => {
    expect(dispute).toMatchObject({ status: "needs_response", reason: "fraudulent", amount: 2345 });
    const res = await call("GET", `/v1/disputes/${dispute.id}/evidence_pack`, { key: shop.testKey });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const pack = res.body;
    expect(pack).toMatchObject({ object: "evidence_pack", dispute: dispute.id });
    expect(pack.pdfUrl).toMatch(new RegExp(`/v1/disputes/${dispute.id}/evidence_pack\\.pdf$`));
    expect(pack.document.payment).toMatchObject({
      paymentIntentId: purchase.paymentIntentId,
      source: "mastercard",
      amount: 2345,
      disputableThroughNetwork: true,
    });
    expect(pack.document.agent).toMatchObject({
      network: "mastercard",
      protocol: "web-bot-auth",
      agentKeyId: purchase.agent.id,
      agentName: "Evidence agent",
      keyid: purchase.agent.keyid,
      credentialId: purchase.tokenId,
      verified: true,
      verifiedAt: expect.any(String),
    });
    expect(pack.document.agent.signature.nonce).toEqual(expect.any(String));
    expect(pack.document.receipt.paymentIntentId).toBe(purchase.paymentIntentId);
    expect(pack.document.ap2).toBeNull();
    expect(pack.document.x402).toBeNull();
    expect(pack.document.events.map((e: any) => e.type)).toContain("payment_intent.captured");

    const { payload, protectedHeader } = await jwtVerify(pack.jws, jwks(), { issuer: baseUrl(), subject: dispute.id });
    expect(protectedHeader).toMatchObject({ alg: "ES256", typ: "evidence-pack+jwt" });
    expect(payload).toMatchObject({ agent: { keyid: purchase.agent.keyid }, receipt: { paymentIntentId: purchase.paymentIntentId } });
    // The receipt inside is the service's own signed receipt, verifiable on its own.
    const receipt = await jwtVerify(pack.document.receipt.jws, jwks());
    expect(receipt.payload).toMatchObject({ sub: purchase.paymentIntentId, source: "mastercard" });
  });

  it("prints a PDF holding the agent's key id and the receipt's PaymentIntent id", async () => {
    const pack = (await call("GET", `/v1/disputes/${dispute.id}/evidence_pack`, { key: shop.testKey })).body;
    const textOfPdf = await pdfText(shop.testKey, pack.pdfUrl);
    expect(textOfPdf).toContain(purchase.agent.keyid);
    expect(textOfPdf).toContain(purchase.paymentIntentId);
    expect(textOfPdf).toContain(dispute.id);
  });

  it("is the merchant's only: another merchant 404, a restricted key without disputes 403, no key 401", async () => {
    const other = await call("GET", `/v1/disputes/${dispute.id}/evidence_pack`, { key: stranger.testKey });
    expect(other.status).toBe(404);
    const pdf = await fetch(`${baseUrl()}/v1/disputes/${dispute.id}/evidence_pack.pdf`, {
      headers: { Authorization: `Bearer ${stranger.testKey}` },
    });
    expect(pdf.status).toBe(404);
    const restricted = await transaction((tx) =>
      createScopedApiKey(
        tx,
        { merchantId: shop.merchantId, livemode: false },
        { name: "no disputes", permissions: normalizePermissions({ payment_intents: "read" }) },
      ),
    );
    const denied = await call("GET", `/v1/disputes/${dispute.id}/evidence_pack`, { key: restricted.secret });
    expect(denied.status).toBe(403);
    expect(denied.body.error.details).toMatchObject({ reason: "permission_denied", resource: "disputes", required: "read" });
    expect((await call("GET", `/v1/disputes/${dispute.id}/evidence_pack`)).status).toBe(401);
  });

  it("is submitted with one action: the evidence gains the signed pack, the merchant's text beside it, and the dispute is decided", async () => {
    const res = await call("POST", `/v1/disputes/${dispute.id}`, {
      key: shop.testKey,
      body: { evidence: { uncategorizedText: "winning_evidence: the agent was verified", includeEvidencePack: true }, submit: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe("under_review");
    expect(res.body.evidence.includeEvidencePack).toBeUndefined();
    expect(res.body.evidence.uncategorizedText).toContain("winning_evidence");
    const { payload } = await jwtVerify(res.body.evidence.evidencePack, jwks(), { subject: dispute.id });
    expect(payload).toMatchObject({ agent: { keyid: purchase.agent.keyid } });
    // The pack cannot be forged through the evidence fields.
    const forged = await call("POST", `/v1/disputes/${dispute.id}`, { key: shop.testKey, body: { evidence: { evidencePack: "x" } } });
    expect(forged.status).toBe(400);
    let outcome: any;
    await tickUntil(async () => {
      outcome = (await call("GET", `/v1/disputes/${dispute.id}`, { key: shop.testKey })).body;
      return outcome.status === "won";
    });
    expect(outcome.evidence.evidencePack).toBe(res.body.evidence.evidencePack);
  });
});

describe("the evidence pack of an AP2 purchase", () => {
  it("names the CartMandate, the PaymentMandate and the user's authorization, and the receipt", async () => {
    const lamp = (await call("POST", "/v1/products", { key: shop.testKey, body: { name: "Desk lamp", unitAmount: 1250, currency: "usd" } }))
      .body;
    const client = await a2aClient(shop.merchantId, payer.testKey);
    const agent = agentBase(shop.merchantId);
    const t1 = await send(client, userMessage([data({ action: "buy", items: [{ productId: lamp.id, quantity: 1 }] })]), [AP2_EXT]);
    const cart = t1.artifacts.flatMap((a) => dataOf(a.parts)).find((d) => d["ap2.mandates.CartMandate"])!["ap2.mandates.CartMandate"];
    const spt = await call("POST", "/v1/shared_payment_tokens", {
      key: payer.testKey,
      body: { paymentMethod: "pm_card_createDispute", maxAmount: 10_000, currency: "usd", merchantId: shop.merchantId },
    });
    expect(spt.status, JSON.stringify(spt.body)).toBe(201);
    const pm = {
      payment_mandate_contents: {
        payment_mandate_id: randomUUID(),
        payment_details_id: cart.contents.id,
        payment_details_total: cart.contents.payment_request.details.total,
        payment_response: {
          request_id: cart.contents.id,
          method_name: cart.contents.payment_request.method_data[0].supported_methods,
          details: { token: spt.body.id },
        },
        merchant_agent: agent,
        timestamp: new Date().toISOString(),
      },
      user_authorization: "eyJhbGciOiJFUzI1NiJ9.user-consent.sig",
    };
    const t2 = await send(
      client,
      userMessage([text("paying"), data({ "ap2.mandates.PaymentMandate": pm }), data({ "ap2.mandates.CartMandate": cart })], {
        taskId: t1.id,
        contextId: t1.contextId,
      }),
      [AP2_EXT],
    );
    expect(t2.status?.state, JSON.stringify(t2.status)).toBe(TaskState.TASK_STATE_COMPLETED);
    const receipt = t2.artifacts.flatMap((a) => dataOf(a.parts)).find((d) => d["ap2.PaymentReceipt"])!["ap2.PaymentReceipt"];
    const paymentIntentId = receipt.payment_id as string;

    const dispute = await disputeOf(shop.testKey, paymentIntentId);
    const pack = (await call("GET", `/v1/disputes/${dispute.id}/evidence_pack`, { key: shop.testKey })).body;
    expect(pack.document.payment).toMatchObject({ paymentIntentId, source: "ap2" });
    expect(pack.document.agent).toBeNull();
    expect(pack.document.ap2).toMatchObject({
      cartMandate: {
        cartId: cart.contents.id,
        merchantAuthorization: cart.merchant_authorization,
        merchantSignatureKid: expect.any(String),
      },
      paymentMandate: { id: pm.payment_mandate_contents.payment_mandate_id, tokenId: spt.body.id, usedAt: expect.any(String) },
      userAuthorization: pm.user_authorization,
    });
    expect(pack.document.receipt.claims).toMatchObject({ sub: paymentIntentId, source: "ap2" });
    const { payload } = await jwtVerify(pack.jws, jwks(), { subject: dispute.id });
    expect(payload).toMatchObject({ ap2: { paymentMandate: { id: pm.payment_mandate_contents.payment_mandate_id } } });
    const textOfPdf = await pdfText(shop.testKey, pack.pdfUrl);
    expect(textOfPdf).toContain(pm.payment_mandate_contents.payment_mandate_id);
    expect(textOfPdf).toContain(paymentIntentId);
  });
});

describe("live disputes from the rail (LIVE_RAIL=test)", () => {
  const SECRET = "whsec_rail_dispute_test_secret";
  let live: ServerProcess;
  let m: TestMerchant;
  beforeAll(async () => {
    live = await startTestServer({ LIVE_RAIL: "test", WALLET_WEBHOOK_SECRET: SECRET, SETTLEMENT_DELAY_SECONDS: "0" });
    m = await createTestMerchant("live disputes");
  });
  afterAll(() => live?.stop());

  const notify = (event: unknown, secret = SECRET) => {
    const rawBody = JSON.stringify(event);
    return call("POST", "/v1/integrations/rail/disputes", {
      base: live.url,
      rawBody,
      headers: { "content-type": "application/json", "x-service-signature": generateTestHeader({ payload: rawBody, secret }) },
    });
  };

  it("refuses a bad signature (401, nothing opened); a signed notice opens the dispute once; the network's decision closes it", async () => {
    const checkout = await openCheckout(m.liveKey, { amount: 1500 }, live.url);
    expect((await capture(m.liveKey, checkout.id, "pm_card_visa", { base: live.url })).status).toBe(200);
    const pi = checkout.paymentIntentId as string;
    await tickUntil(
      async () => (await call("GET", `/v1/payment_intents/${pi}`, { key: m.liveKey, base: live.url })).body.status === "settled",
      live.url,
    );
    const opened = { id: `evt_${randomUUID()}`, type: "dispute.created", data: { paymentIntentId: pi, reason: "product_not_received" } };

    const forged = await notify(opened, "whsec_not_the_providers");
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe("UNAUTHORIZED");
    const unsigned = await call("POST", "/v1/integrations/rail/disputes", { base: live.url, rawBody: JSON.stringify(opened) });
    expect(unsigned.status).toBe(401);
    const none = await call("GET", `/v1/disputes?paymentIntentId=${pi}`, { key: m.liveKey, base: live.url });
    expect(none.body.data).toEqual([]);

    const res = await notify(opened);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.dispute).toMatchObject({ status: "needs_response", reason: "product_not_received", amount: 1500, livemode: true });
    expect((await notify(opened)).body).toEqual({ received: true, duplicate: true });
    const again = await notify({ ...opened, id: `evt_${randomUUID()}` });
    expect(again.status).toBe(409);
    expect(again.body.error.details.reason).toBe("already_disputed");

    const disputeId = res.body.dispute.id as string;
    const submitted = await call("POST", `/v1/disputes/${disputeId}`, {
      key: m.liveKey,
      base: live.url,
      body: { evidence: { uncategorizedText: "shipped", includeEvidencePack: true }, submit: true },
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const decided = await notify({ id: `evt_${randomUUID()}`, type: "dispute.closed", data: { paymentIntentId: pi, outcome: "won" } });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.dispute).toMatchObject({ id: disputeId, status: "won" });
  });

  it("a test-mode payment is not the live rail's to dispute (404)", async () => {
    const checkout = await openCheckout(m.testKey, { amount: 700 }, live.url);
    expect((await capture(m.testKey, checkout.id, "pm_card_visa", { base: live.url })).status).toBe(200);
    const res = await notify({ id: `evt_${randomUUID()}`, type: "dispute.created", data: { paymentIntentId: checkout.paymentIntentId } });
    expect(res.status).toBe(404);
  });
});
