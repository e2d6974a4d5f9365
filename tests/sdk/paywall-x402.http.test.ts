// paywallHttp() also speaks x402 (issue 15 item 6, docs/x402.md "SDK"): one endpoint, served over node:http,
// answers the stock @x402/fetch (PAYMENT-REQUIRED beside the service gate; PAYMENT-SIGNATURE settled through
// the real service's facilitator with the merchant's key) and the service's own proof alike. The same payment sent
// again is SPEC 3.3's already_redeemed (issue 32 item 3), and a handler failing with a 5xx has it refunded (item 5).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ExactEvmScheme } from "@x402/evm";
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transaction } from "../../lib/db";
import { openPaywallCheckout } from "../../lib/paywall/open-paywall-checkout";
import { paywallHttp, serviceBackend, serviceConsumedStore, type HttpHandler } from "agent-payments-sdk";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture } from "../helpers/payments";

let seller: TestMerchant;
let server: Server;
let url = "";
let runs = 0;

/** Serves a Fetch-API handler over node:http. */
function serve(handler: HttpHandler): Promise<Server> {
  const s = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const response = await handler(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve(s)));
}

beforeAll(async () => {
  seller = await createTestMerchant("SDK x402 seller");
  const service = { baseUrl: baseUrl(), apiKey: seller.testKey };
  const handler = paywallHttp({
    backend: serviceBackend(service),
    consumed: serviceConsumedStore({ ...service, merchantId: seller.merchantId }),
    merchantId: seller.merchantId,
    price: 6,
    currency: "usd",
    sku: "api:weather",
    x402: service,
  })(async (req) => {
    runs++;
    if (new URL(req.url).pathname === "/broken") return Response.json({ error: "the weather feed is down" }, { status: 500 });
    return Response.json({ weather: "sunny" });
  });
  server = await serve(handler);
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/weather`;
});
afterAll(() => server?.close());

/** A stock @x402/fetch client's payment for `target`, signed and kept (not sent): the PAYMENT-SIGNATURE header. */
async function signedPayment(target: string): Promise<string> {
  const account = privateKeyToAccount(generatePrivateKey());
  let signed = "";
  const keep = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const header = request.headers.get("payment-signature");
    if (header === null) return fetch(request);
    signed = header;
    return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
  }) as typeof fetch;
  await wrapFetchWithPayment(keep, new x402Client().register("eip155:84532", new ExactEvmScheme(account)))(target);
  expect(signed).not.toBe("");
  return signed;
}

const sendPayment = (target: string, signature: string) => fetch(target, { headers: { "PAYMENT-SIGNATURE": signature } });

async function balanceUsd(): Promise<number> {
  const body = (await call("GET", "/v1/balance", { key: seller.testKey })).body;
  const sum = (list: { currency: string; amount: number }[]) => list.filter((b) => b.currency === "USD").reduce((t, b) => t + b.amount, 0);
  return sum(body.pending) + sum(body.payable);
}

describe("paywallHttp with x402", () => {
  it("the 402 carries the service gate AND PAYMENT-REQUIRED (exact, eip155:84532, 6 cents = 60000, the merchant's payTo)", async () => {
    const res = await fetch(url);
    expect(res.status).toBe(402);
    const gate = await res.json();
    expect(gate).toMatchObject({ amount: 6, currency: "USD", sku: "api:weather" });
    const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString("utf8"));
    const payTo = (await call("GET", "/x402/supported", { key: seller.testKey })).body.kinds[0].extra.payTo;
    expect(required).toMatchObject({
      x402Version: 2,
      accepts: [{ scheme: "exact", network: "eip155:84532", amount: "60000", payTo, extra: { name: "USDC", version: "2" } }],
    });
  });

  it("the stock @x402/fetch pays it: 200, the handler ran once, a captured x402 PaymentIntent; the replay is already_redeemed", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const sent: string[] = [];
    const recording = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const header = request.headers.get("payment-signature");
      if (header) sent.push(header);
      return fetch(request);
    }) as typeof fetch;
    const pay = wrapFetchWithPayment(recording, new x402Client().register("eip155:84532", new ExactEvmScheme(account)));
    const before = runs;
    const res = await pay(url);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ weather: "sunny", payment: { status: "paid" } });
    expect(runs).toBe(before + 1);
    const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    expect(receipt).toMatchObject({ success: true, payer: account.address, network: "eip155:84532" });
    expect(body.payment.paymentIntentId).toBe(receipt.transaction);
    const pi = await call("GET", `/v1/payment_intents/${receipt.transaction}`, { key: seller.testKey });
    expect(pi.body).toMatchObject({ status: "captured", amount: 6, source: "x402", payer: account.address });

    // The same payment again (its answer lost): the facilitator answers it as settled before, and the SDK answers
    // SPEC 3.3's already_redeemed without running the handler (never a 402: the client would pay again).
    const replay = await fetch(url, { headers: { "PAYMENT-SIGNATURE": sent[0] } });
    expect(replay.status).toBe(409);
    expect(await replay.json()).toMatchObject({
      kind: "already_redeemed",
      result: "already_redeemed",
      paymentIntentId: receipt.transaction,
    });
    expect(runs).toBe(before + 1);
    const garbage = await fetch(url, { headers: { "PAYMENT-SIGNATURE": "%%%" } });
    expect(garbage.status).toBe(402);
    expect(runs).toBe(before + 1);
  });

  it("a handler answering 5xx after an x402 payment: refunded once (ledger checked); the same payment again is already_redeemed", async () => {
    const broken = url.replace(/\/weather$/, "/broken");
    const signature = await signedPayment(broken);
    const before = { runs, balance: await balanceUsd() };
    const res = await sendPayment(broken, signature);
    expect(res.status).toBe(500);
    const body = await res.json();
    const paymentIntentId = body.payment?.paymentIntentId as string;
    expect(body).toEqual({
      error: "the weather feed is down",
      payment: { status: "refunded", paymentIntentId: expect.stringMatching(/^pi_/), refundId: expect.stringMatching(/^re_/) },
    });
    expect(JSON.parse(res.headers.get("x-service-payment-response")!)).toEqual(body.payment);
    expect(decodePaymentResponseHeader(res.headers.get("payment-response")!)).toMatchObject({
      success: true,
      transaction: paymentIntentId,
    });
    expect(runs).toBe(before.runs + 1);
    const refunds = (await call("GET", `/v1/refunds?paymentIntentId=${paymentIntentId}`, { key: seller.testKey })).body.data;
    expect(refunds).toEqual([expect.objectContaining({ id: body.payment.refundId, amount: 6, status: "succeeded" })]);
    const pi = await call("GET", `/v1/payment_intents/${paymentIntentId}`, { key: seller.testKey });
    expect(pi.body).toMatchObject({ status: "refunded", source: "x402", amountCaptured: 6, amountRefunded: 6 });
    expect(await balanceUsd()).toBe(before.balance);

    // SPEC 3.3: the payment was redeemed; sent again it never runs the handler (nor is it refunded) again.
    const again = await sendPayment(broken, signature);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ kind: "already_redeemed", paymentIntentId });
    expect(runs).toBe(before.runs + 1);
    expect((await call("GET", `/v1/refunds?paymentIntentId=${paymentIntentId}`, { key: seller.testKey })).body.data).toHaveLength(1);
  });

  it("five concurrent copies of one x402 payment: the handler runs once; one 200, four already_redeemed; one PaymentIntent", async () => {
    const signature = await signedPayment(url);
    const before = { runs, balance: await balanceUsd() };
    const answers = await Promise.all(Array.from({ length: 5 }, () => sendPayment(url, signature)));
    const bodies = await Promise.all(answers.map((a) => a.json()));
    expect(runs).toBe(before.runs + 1);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const paid = bodies.find((b) => b.payment?.status === "paid");
    for (const body of bodies.filter((b) => b !== paid))
      expect(body).toMatchObject({ kind: "already_redeemed", paymentIntentId: paid.payment.paymentIntentId });
    expect(await balanceUsd()).toBe(before.balance + 6);
  });

  it("the service's own proof still works on the same endpoint", async () => {
    const checkout = await transaction((tx) =>
      openPaywallCheckout(tx, { merchantId: seller.merchantId, livemode: false }, { amount: 6, currency: "USD", sku: "api:weather" }),
    );
    expect((await capture(seller.testKey, checkout.id)).status).toBe(200);
    const before = runs;
    const res = await fetch(url, { headers: { "x-service-payment": checkout.paymentIntentId as string } });
    expect(res.status).toBe(200);
    expect(runs).toBe(before + 1);
  });

  it("x402 needs a USD price", () => {
    const service = { baseUrl: baseUrl(), apiKey: seller.testKey };
    expect(() =>
      paywallHttp({
        backend: serviceBackend(service),
        consumed: serviceConsumedStore({ ...service, merchantId: seller.merchantId }),
        merchantId: seller.merchantId,
        price: 6,
        currency: "eur",
        sku: "x",
        x402: service,
      }),
    ).toThrow(/USD/);
  });
});
