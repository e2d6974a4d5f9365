// x402 (docs/x402.md, docs/x402.md) with the REAL, unmodified clients: @x402/fetch 2.27 (v2,
// PAYMENT-SIGNATURE) and x402-fetch 1.2 (v1, X-PAYMENT) pay hosted resources at /x402/r/:id; the real
// @x402/express middleware in a small merchant app settles through this service's facilitator; replays,
// concurrency across two server processes, and bad input on every path.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { HTTPFacilitatorClient, x402ResourceServer } from "@x402/core/server";
import { ExactEvmScheme as ExactEvmClientScheme } from "@x402/evm";
import { ExactEvmScheme as ExactEvmServerScheme } from "@x402/evm/exact/server";
import { paymentMiddleware } from "@x402/express";
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch";
import express from "express";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigner, decodeXPaymentResponse, wrapFetchWithPayment as wrapFetchV1 } from "x402-fetch";
import { getDb } from "../../lib/db";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

const USDC = "0x036CbD53842c5426634e7929541eC2318f3dCF7e";

let m: TestMerchant;
let other: TestMerchant;
beforeAll(async () => {
  [m, other] = await Promise.all([createTestMerchant("x402 seller"), createTestMerchant("x402 other")]);
});

async function resource(body: Record<string, unknown> = {}, key = m.testKey) {
  const res = await call("POST", "/v1/paid_resources", {
    key,
    body: { name: "Forecast", amount: 5, currency: "usd", content: { forecast: "sunny", id: Math.random() }, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function balanceUsd(key: string): Promise<number> {
  const res = await call("GET", "/v1/balance", { key });
  const sum = (list: { currency: string; amount: number }[]) => list.filter((b) => b.currency === "USD").reduce((s, b) => s + b.amount, 0);
  return sum(res.body.pending) + sum(res.body.payable);
}

async function x402Payments(merchantId: string): Promise<number> {
  return getDb().paymentIntent.count({ where: { merchantId, source: "x402" } });
}

/** A fetch that records the payment headers it sends (to replay them) and hands every request on. */
function recordingFetch() {
  const sent: Record<string, string>[] = [];
  const f = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const payment: Record<string, string> = {};
    for (const name of ["payment-signature", "x-payment"]) {
      const value = request.headers.get(name);
      if (value) payment[name] = value;
    }
    if (Object.keys(payment).length) sent.push(payment);
    return fetch(request);
  };
  return { fetch: f as typeof fetch, sent };
}

function v2Payer() {
  const account = privateKeyToAccount(generatePrivateKey());
  const recorder = recordingFetch();
  const client = new x402Client().register("eip155:84532", new ExactEvmClientScheme(account));
  return { account, recorder, pay: wrapFetchWithPayment(recorder.fetch, client) };
}

describe("hosted paid resources with the real @x402/fetch (v2)", () => {
  it("unpaid: 402 with PAYMENT-REQUIRED (standard base64 v2) and the v1 JSON body", async () => {
    const r = await resource({ amount: 25, description: "Today's forecast" });
    const res = await fetch(`${baseUrl()}/x402/r/${r.id}`);
    expect(res.status).toBe(402);
    const header = res.headers.get("payment-required")!;
    expect(header).toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
    const required = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
    const supported = await call("GET", "/x402/supported", { key: m.testKey });
    const payTo = supported.body.kinds[0].extra.payTo;
    expect(required).toMatchObject({
      x402Version: 2,
      resource: { url: `${baseUrl()}/x402/r/${r.id}`, description: "Today's forecast" },
      accepts: [
        {
          scheme: "exact",
          network: "eip155:84532",
          amount: "250000",
          asset: USDC,
          payTo,
          maxTimeoutSeconds: 300,
          extra: { name: "USDC", version: "2" },
        },
      ],
    });
    const body = await res.json();
    expect(body).toMatchObject({
      x402Version: 1,
      error: expect.any(String),
      accepts: [
        {
          scheme: "exact",
          network: "base-sepolia",
          maxAmountRequired: "250000",
          resource: `${baseUrl()}/x402/r/${r.id}`,
          payTo,
          asset: USDC,
          extra: { name: "USDC", version: "2" },
        },
      ],
    });
    expect(body.accepts).toHaveLength(1);
    expect(res.headers.get("ratelimit-limit")).not.toBeNull();
  });

  it("pays: 200, the content once, a captured PaymentIntent (source x402, payer, the resource) and the balance up by the price; a replay gets the same answer with nothing moved", async () => {
    const r = await resource({ amount: 7, content: { secret: "the answer is 42" } });
    const before = await balanceUsd(m.testKey);
    const { account, recorder, pay } = v2Payer();
    const res = await pay(`${baseUrl()}/x402/r/${r.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ secret: "the answer is 42" });
    const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    expect(receipt).toMatchObject({ success: true, network: "eip155:84532", payer: account.address });
    expect(receipt.transaction).toMatch(/^pi_/);
    const pi = await call("GET", `/v1/payment_intents/${receipt.transaction}`, { key: m.testKey });
    expect(pi.body).toMatchObject({
      status: expect.stringMatching(/^(captured|settled)$/),
      amount: 7,
      amountCaptured: 7,
      currency: "USD",
      source: "x402",
      payer: account.address,
      paidResourceId: r.id,
      livemode: false,
    });
    expect(pi.body.paymentMethod).toBe(`x402:eip155:84532:${account.address}`);
    const order = await call("GET", `/v1/orders/${pi.body.orderId}`, { key: m.testKey });
    expect(order.body).toMatchObject({ status: "paid", source: "x402", amount: 7 });
    expect(await balanceUsd(m.testKey)).toBe(before + 7);
    const sales = await call("GET", `/v1/payment_intents?paidResourceId=${r.id}`, { key: m.testKey });
    expect(sales.body.data.map((p: any) => p.id)).toEqual([receipt.transaction]);
    const events = await call("GET", "/v1/events?type=payment_intent.captured&limit=100", { key: m.testKey });
    expect(events.body.data.some((e: any) => e.data.object.id === receipt.transaction)).toBe(true);

    // The same signed payload again (the answer was lost): the same answer, nothing charged again.
    expect(recorder.sent).toHaveLength(1);
    const replay = await fetch(`${baseUrl()}/x402/r/${r.id}`, { headers: recorder.sent[0] });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("payment-response")).toBe(res.headers.get("payment-response"));
    expect(await replay.json()).toEqual({ secret: "the answer is 42" });
    expect(await balanceUsd(m.testKey)).toBe(before + 7);
    expect((await call("GET", `/v1/payment_intents?paidResourceId=${r.id}`, { key: m.testKey })).body.data).toHaveLength(1);

    // Refunds like any payment.
    const refund = await call("POST", "/v1/refunds", { key: m.testKey, body: { paymentIntentId: receipt.transaction } });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expect(await balanceUsd(m.testKey)).toBe(before);
  });

  it("an archived, unknown, or other-currency resource is not sold", async () => {
    const r = await resource();
    await call("DELETE", `/v1/paid_resources/${r.id}`, { key: m.testKey });
    expect((await fetch(`${baseUrl()}/x402/r/${r.id}`)).status).toBe(404);
    expect((await fetch(`${baseUrl()}/x402/r/xr_unknown000000000000000000`)).status).toBe(404);
    expect((await fetch(`${baseUrl()}/x402/r/not-an-id`)).status).toBe(404);
    const eur = await resource({ currency: "eur" });
    const res = await fetch(`${baseUrl()}/x402/r/${eur.id}`);
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("CONFLICT");
  });

  it("a forwarded resource: the merchant's URL gets the paid request after settlement; a 5xx there is refunded and answered 502", async () => {
    const seen: { method: string; url: string; headers: Record<string, unknown>; body: string }[] = [];
    let failWith = 0;
    const merchant: Server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        if (failWith) {
          res.writeHead(failWith).end("boom");
          return;
        }
        res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ created: true }));
      });
    });
    await new Promise<void>((resolve) => merchant.listen(0, "127.0.0.1", resolve));
    const port = (merchant.address() as AddressInfo).port;
    try {
      const r = await resource({ content: undefined, url: `http://127.0.0.1:${port}/api/jobs`, amount: 3, method: "POST" });
      const before = await balanceUsd(m.testKey);
      const { pay, account } = v2Payer();
      const res = await pay(`${baseUrl()}/x402/r/${r.id}?q=1`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ job: "x" }),
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ created: true });
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ method: "POST", url: "/api/jobs?q=1", body: JSON.stringify({ job: "x" }) });
      expect(seen[0].headers["x-payer"]).toBe(account.address);
      expect(seen[0].headers["x-payment-intent"]).toMatch(/^pi_/);
      expect(await balanceUsd(m.testKey)).toBe(before + 3);

      failWith = 503;
      const second = v2Payer();
      const failed = await second.pay(`${baseUrl()}/x402/r/${r.id}`, { method: "POST" });
      expect(failed.status).toBe(502);
      const body = await failed.json();
      expect(body.error).toMatchObject({ code: "UPSTREAM_ERROR", details: { reason: "forward_failed" } });
      const pi = await call("GET", `/v1/payment_intents/${body.error.details.paymentIntentId}`, { key: m.testKey });
      expect(pi.body).toMatchObject({ status: "refunded", amountRefunded: 3, source: "x402" });
      expect(await balanceUsd(m.testKey)).toBe(before + 3);
    } finally {
      merchant.close();
    }
  });
});

describe("the legacy x402-fetch 1.2 (v1, X-PAYMENT, base-sepolia)", () => {
  it("pays a hosted resource", async () => {
    const r = await resource({ amount: 2, content: { v1: true } });
    const before = await balanceUsd(m.testKey);
    const signer = await createSigner("base-sepolia", generatePrivateKey());
    const pay = wrapFetchV1(fetch, signer);
    const res = await pay(`${baseUrl()}/x402/r/${r.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ v1: true });
    const receipt = decodeXPaymentResponse(res.headers.get("x-payment-response")!);
    expect(receipt).toMatchObject({ success: true, network: "base-sepolia" });
    const pi = await call("GET", `/v1/payment_intents/${receipt.transaction}`, { key: m.testKey });
    expect(pi.body).toMatchObject({
      status: expect.stringMatching(/^(captured|settled)$/),
      amount: 2,
      source: "x402",
      paidResourceId: r.id,
    });
    expect(pi.body.payer.toLowerCase()).toBe((signer as any).account.address.toLowerCase());
    expect(await balanceUsd(m.testKey)).toBe(before + 2);
  });
});

describe("the real @x402/express middleware settling through this service's facilitator", () => {
  let app: Server;
  let appUrl = "";
  let payTo = "";
  beforeAll(async () => {
    const supported = await call("GET", "/x402/supported", { key: m.testKey });
    expect(supported.status).toBe(200);
    payTo = supported.body.kinds.find((k: any) => k.x402Version === 2).extra.payTo;
    const facilitator = new HTTPFacilitatorClient({
      url: `${baseUrl()}/x402`,
      createAuthHeaders: async () => {
        const headers = { Authorization: `Bearer ${m.testKey}` };
        return { verify: headers, settle: headers, supported: headers };
      },
    });
    const server = new x402ResourceServer(facilitator).register("eip155:84532", new ExactEvmServerScheme());
    const merchantApp = express();
    merchantApp.use(
      paymentMiddleware(
        { "GET /premium": { accepts: { scheme: "exact", price: "$0.04", network: "eip155:84532", payTo }, description: "Premium data" } },
        server,
      ),
    );
    merchantApp.get("/premium", (_req, res) => {
      res.json({ premium: "data" });
    });
    app = await new Promise<Server>((resolve) => {
      const s = merchantApp.listen(0, "127.0.0.1", () => resolve(s));
    });
    appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  });
  afterAll(() => app?.close());

  it("@x402/fetch pays the protected route; the settlement is a captured x402 PaymentIntent in the merchant's ledger", async () => {
    const before = await balanceUsd(m.testKey);
    const count = await x402Payments(m.merchantId);
    expect((await fetch(`${appUrl}/premium`)).status).toBe(402);
    const { pay, account } = v2Payer();
    const res = await pay(`${appUrl}/premium`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ premium: "data" });
    const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    expect(receipt).toMatchObject({ success: true, network: "eip155:84532", payer: account.address });
    const pi = await call("GET", `/v1/payment_intents/${receipt.transaction}`, { key: m.testKey });
    expect(pi.body).toMatchObject({
      status: expect.stringMatching(/^(captured|settled)$/),
      amount: 4,
      source: "x402",
      payer: account.address,
      paidResourceId: null,
    });
    expect(await balanceUsd(m.testKey)).toBe(before + 4);
    expect(await x402Payments(m.merchantId)).toBe(count + 1);
  });

  it("the facilitator answers a settled payment again to its merchant (valid, the same transaction, replayed) and refuses another merchant's payTo", async () => {
    const { account, recorder, pay } = v2Payer();
    const paid = await pay(`${appUrl}/premium`);
    expect(paid.status).toBe(200);
    const first = decodePaymentResponseHeader(paid.headers.get("payment-response")!);
    const payload = JSON.parse(Buffer.from(recorder.sent[0]["payment-signature"], "base64").toString("utf8"));
    const body = { x402Version: 2, paymentPayload: payload, paymentRequirements: payload.accepted };
    const count = await x402Payments(m.merchantId);
    const verify = await call("POST", "/x402/verify", { key: m.testKey, body });
    expect(verify.body).toEqual({ isValid: true, payer: account.address });
    const settle = await call("POST", "/x402/settle", { key: m.testKey, body });
    expect(settle.body).toMatchObject({
      success: true,
      transaction: first.transaction,
      network: "eip155:84532",
      payer: account.address,
      extensions: { paymentIntentId: first.transaction, replayed: true },
    });
    expect(await x402Payments(m.merchantId)).toBe(count);
    const elsewhere = await call("POST", "/x402/verify", { key: other.testKey, body });
    expect(elsewhere.body).toMatchObject({ isValid: false, invalidReason: "invalid_exact_evm_recipient_mismatch" });
  });
});
