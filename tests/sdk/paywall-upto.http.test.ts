// Issue 34, item 2: paywallHttp() usage-priced over x402's `upto` (docs/sdk.md "Usage-priced x402 (upto)"). The
// stock @x402/fetch client with @x402/evm/upto/client's scheme authorizes 100 units (1 cent each); the handler
// reports 37 in X-Usage-Units; the SDK settles 37 through the real service's facilitator: the PaymentIntent says 37.
// The same payment again is already_redeemed: the handler does not run again, nothing moves. A usage above the
// maximum is not settled (500 usage_exceeds_maximum, the content withheld, the authorization not spent).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { UptoEvmScheme } from "@x402/evm/upto/client";
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import {
  paywall,
  paywallHttp,
  serviceBackend,
  serviceConsumedStore,
  UptoOverMcpError,
  USAGE_UNITS_HEADER,
  type HttpHandler,
} from "agent-payments-sdk";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

let seller: TestMerchant;
let server: Server;
let url = "";
let runs = 0;
/** The units the handler reports next. */
let used = "37";

function serve(handler: HttpHandler): Promise<Server> {
  const s = createServer(async (req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const response = await handler(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve(s)));
}

function options() {
  const service = { baseUrl: baseUrl(), apiKey: seller.testKey };
  return {
    backend: serviceBackend(service),
    consumed: serviceConsumedStore({ ...service, merchantId: seller.merchantId }),
    merchantId: seller.merchantId,
    price: 100,
    currency: "usd",
    sku: "api:tokens",
    x402: { ...service, maxAmount: 100, unitAmount: 1 },
  };
}

beforeAll(async () => {
  seller = await createTestMerchant("SDK upto seller");
  const handler = paywallHttp(options())(async () => {
    runs++;
    return Response.json({ tokens: Number(used) }, { headers: { [USAGE_UNITS_HEADER]: used } });
  });
  server = await serve(handler);
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/generate`;
});
afterAll(() => server?.close());

/** The stock payer with the upto scheme, recording the PAYMENT-SIGNATURE it sends. */
function uptoPayer() {
  const account = privateKeyToAccount(generatePrivateKey());
  const sent: string[] = [];
  const recording = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const header = request.headers.get("payment-signature");
    if (header) sent.push(header);
    return fetch(request);
  }) as typeof fetch;
  return { account, sent, pay: wrapFetchWithPayment(recording, new x402Client().register("eip155:84532", new UptoEvmScheme(account))) };
}

const paymentsOf = (payer: string) => getDb().paymentIntent.findMany({ where: { merchantId: seller.merchantId, payer } });

describe("paywallHttp with x402 upto", () => {
  it("the 402 asks upto for the maximum (100 cents = 1000000), bound to the facilitator's address", async () => {
    const res = await fetch(url);
    expect(res.status).toBe(402);
    const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString("utf8"));
    expect(required.accepts).toEqual([
      expect.objectContaining({
        scheme: "upto",
        network: "eip155:84532",
        amount: "1000000",
        extra: expect.objectContaining({ facilitatorAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) }),
      }),
    ]);
  });

  it("the stock client authorizes 100 units, the handler uses 37: the PaymentIntent says 37; the same payment again is already_redeemed", async () => {
    used = "37";
    const { account, sent, pay } = uptoPayer();
    const before = runs;
    const res = await pay(url);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ tokens: 37, payment: { status: "paid" } });
    expect(runs).toBe(before + 1);
    const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    expect(receipt).toMatchObject({ success: true, payer: account.address, amount: "370000" });
    const pi = await call("GET", `/v1/payment_intents/${body.payment.paymentIntentId}`, { key: seller.testKey });
    expect(pi.body).toMatchObject({ status: "captured", amount: 37, source: "x402", payer: account.address });

    const replay = await fetch(url, { headers: { "PAYMENT-SIGNATURE": sent[0] } });
    expect(replay.status).toBe(409);
    expect(await replay.json()).toMatchObject({ kind: "already_redeemed", paymentIntentId: body.payment.paymentIntentId });
    expect(runs).toBe(before + 1);
    expect((await paymentsOf(account.address)).map((p) => p.amount)).toEqual([37]);
  });

  it("a usage above the maximum is not settled (500 usage_exceeds_maximum, content withheld); the authorization stays unspent", async () => {
    used = "101";
    const { account, sent, pay } = uptoPayer();
    const res = await pay(url);
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body.error).toMatchObject({ details: { reason: "usage_exceeds_maximum", units: 101, maxAmount: 100 } });
    expect(JSON.stringify(body)).not.toContain("tokens");
    expect(await paymentsOf(account.address)).toHaveLength(0);
    used = "100";
    const within = await fetch(url, { headers: { "PAYMENT-SIGNATURE": sent[0] } });
    expect(within.status).toBe(200);
    expect((await paymentsOf(account.address)).map((p) => p.amount)).toEqual([100]);
    used = "37";
  });

  it("zero units: the answer with a receipt of 0 and no PaymentIntent", async () => {
    used = "0";
    const { account, pay } = uptoPayer();
    const res = await pay(url);
    expect(res.status).toBe(200);
    expect(decodePaymentResponseHeader(res.headers.get("payment-response")!)).toMatchObject({ success: true, amount: "0" });
    expect(await paymentsOf(account.address)).toHaveLength(0);
    used = "37";
  });

  it("the options: maxAmount and unitAmount together, whole cents, unit <= maximum; paywall() (MCP) refuses upto", () => {
    const base = options();
    for (const x402 of [
      { ...base.x402, unitAmount: undefined },
      { ...base.x402, maxAmount: 10, unitAmount: 11 },
      { ...base.x402, maxAmount: 10.5 },
    ])
      expect(() => paywallHttp({ ...base, x402 })).toThrow(/upto/);
    expect(() => paywall({ ...base })).toThrow(UptoOverMcpError);
  });
});
