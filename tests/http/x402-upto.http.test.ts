// Issue 34, item 1: x402 `upto` (usage-priced) on a hosted resource, test mode. The stock client (@x402/fetch with
// @x402/evm/upto/client's scheme) authorizes the resource's maximum (100 units); the merchant's server reports the
// units it used in X-Usage-Units; the service captures units x unitAmount (one PaymentIntent, order and ledger
// posting for that, nothing for the rest). The same payment again is answered again (nothing moves); the
// authorization cannot pay anything else; a usage above the maximum is refused (502 usage_exceeds_maximum, nothing
// captured, the authorization not spent).
import { x402Client } from "@x402/core/client";
import { UptoEvmScheme } from "@x402/evm/upto/client";
import { decodePaymentResponseHeader, wrapFetchWithPayment } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { serveFetch, type FetchServer } from "../helpers/fetch-server";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";

const unb64 = (text: string) => JSON.parse(Buffer.from(text, "base64").toString("utf8"));
const UNIT = 1; // cent per unit
const MAX = 100 * UNIT; // 100 units ($1: the stock client's default spend cap per payment)

let m: TestMerchant;
let origin: FetchServer;
/** What the merchant's server reports next (null: no X-Usage-Units), and what it was asked. */
let report: string | null = "37";
const forwards: { resource: string; paymentIntent: string | null }[] = [];

beforeAll(async () => {
  m = await createTestMerchant("upto seller");
  origin = await serveFetch(async (request) => {
    forwards.push({ resource: request.headers.get("x-paid-resource") ?? "", paymentIntent: request.headers.get("x-payment-intent") });
    const headers: Record<string, string> = report === null ? {} : { "X-Usage-Units": report };
    return Response.json({ tokens: report, at: forwards.length }, { headers });
  });
});
afterAll(() => origin?.close());

async function uptoResource(body: Record<string, unknown> = {}) {
  const res = await call("POST", "/v1/paid_resources", {
    key: m.testKey,
    body: { name: "Tokens", scheme: "upto", maxAmount: MAX, unitAmount: UNIT, currency: "usd", url: `${origin.url}/generate`, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** The stock payer (upto scheme registered), recording the PAYMENT-SIGNATURE it sends. */
function uptoPayer() {
  const account = privateKeyToAccount(generatePrivateKey());
  const sent: string[] = [];
  const recording = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const header = request.headers.get("payment-signature");
    if (header) sent.push(header);
    return fetch(request);
  };
  const client = new x402Client().register("eip155:84532", new UptoEvmScheme(account));
  return { account, sent, pay: wrapFetchWithPayment(recording as typeof fetch, client) };
}

async function send(resourceId: string, header: string) {
  const res = await fetch(`${baseUrl()}/x402/r/${resourceId}`, { headers: { "PAYMENT-SIGNATURE": header } });
  return {
    status: res.status,
    text: await res.text(),
    receipt: res.headers.get("payment-response"),
    required: res.headers.get("payment-required"),
  };
}

const paymentsOf = (paidResourceId: string) => getDb().paymentIntent.findMany({ where: { paidResourceId } });
const forwardsTo = (id: string) => forwards.filter((f) => f.resource === id).length;

async function ledgerOf(paymentIntentId: string) {
  const entries = await getDb().ledgerEntry.findMany({ where: { paymentIntentId } });
  return { count: entries.length, credited: entries.filter((e) => e.amount > 0).reduce((sum, e) => sum + e.amount, 0) };
}

describe("x402 upto: authorize a maximum, settle the usage", () => {
  it("a resource is exact or upto: upto takes maxAmount, unitAmount and a url; exact takes amount", async () => {
    const r = await uptoResource();
    expect(r).toMatchObject({ scheme: "upto", maxAmount: MAX, unitAmount: UNIT, amount: MAX });
    const exact = await call("POST", "/v1/paid_resources", {
      key: m.testKey,
      body: { name: "Fixed", amount: 3, currency: "usd", content: {} },
    });
    expect(exact.body).toMatchObject({ scheme: "exact", maxAmount: null, unitAmount: null, amount: 3 });
    const bad = [
      { name: "x", scheme: "upto", maxAmount: MAX, unitAmount: UNIT, currency: "usd", content: { a: 1 } },
      { name: "x", scheme: "upto", maxAmount: 4, unitAmount: 5, currency: "usd", url: `${origin.url}/g` },
      { name: "x", scheme: "upto", amount: 5, maxAmount: MAX, unitAmount: UNIT, currency: "usd", url: `${origin.url}/g` },
      { name: "x", amount: 5, unitAmount: UNIT, currency: "usd", url: `${origin.url}/g` },
      { name: "x", scheme: "upto", maxAmount: 10.5, unitAmount: UNIT, currency: "usd", url: `${origin.url}/g` },
      { name: "x", scheme: "upto", maxAmount: MAX, unitAmount: UNIT, currency: "eur", url: `${origin.url}/g` }, // x402 pays in USDC
    ];
    for (const body of bad) {
      const res = await call("POST", "/v1/paid_resources", { key: m.testKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
    const updated = await call("POST", `/v1/paid_resources/${r.id}`, { key: m.testKey, body: { maxAmount: 2 * MAX } });
    expect(updated.body).toMatchObject({ maxAmount: 2 * MAX, amount: 2 * MAX, unitAmount: UNIT });
    const wrong = await call("POST", `/v1/paid_resources/${r.id}`, { key: m.testKey, body: { amount: 7 } });
    expect(wrong.status).toBe(400);
    const euros = await call("POST", `/v1/paid_resources/${r.id}`, { key: m.testKey, body: { currency: "eur" } });
    expect(euros.status).toBe(400);
    expect(euros.body.error.details.fields).toMatchObject([{ path: "currency" }]);
    expect((await call("GET", `/v1/paid_resources/${r.id}`, { key: m.testKey })).body).toMatchObject({ currency: "USD" });
  });

  it("the 402 asks for the maximum under scheme upto, with the facilitator the payer binds to; MPP does not sell it", async () => {
    const r = await uptoResource();
    const res = await fetch(`${baseUrl()}/x402/r/${r.id}`);
    expect(res.status).toBe(402);
    const required = unb64(res.headers.get("payment-required")!);
    expect(required.accepts).toHaveLength(1);
    expect(required.accepts[0]).toMatchObject({
      scheme: "upto",
      network: "eip155:84532",
      amount: String(MAX * 10_000),
      extra: { name: "USDC", version: "2", facilitatorAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) },
    });
    const mpp = await fetch(`${baseUrl()}/mpp/r/${r.id}`);
    expect(mpp.status).toBe(409);
  });

  it("the stock client authorizes 100 units, the origin reports 37: the PaymentIntent and the ledger say 37 x unitAmount; the same payment again moves nothing", async () => {
    const r = await uptoResource();
    report = "37";
    const { account, sent, pay } = uptoPayer();
    const res = await pay(`${baseUrl()}/x402/r/${r.id}`);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ tokens: "37" });
    const receipt = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    expect(receipt).toMatchObject({ success: true, network: "eip155:84532", payer: account.address, amount: String(37 * UNIT * 10_000) });
    const payments = await paymentsOf(r.id);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({
      id: receipt.transaction,
      amount: 37 * UNIT,
      status: expect.stringMatching(/^(captured|settled)$/),
      source: "x402",
      payer: account.address,
    });
    const pi = await call("GET", `/v1/payment_intents/${receipt.transaction}`, { key: m.testKey });
    expect(pi.body).toMatchObject({ status: expect.stringMatching(/^(captured|settled)$/), amount: 37 * UNIT, paidResourceId: r.id });
    expect(await ledgerOf(receipt.transaction)).toMatchObject({ credited: 37 * UNIT });
    // The merchant's server was told the PaymentIntent the usage is captured as.
    expect(forwards.filter((f) => f.resource === r.id).map((f) => f.paymentIntent)).toEqual([receipt.transaction]);

    // The very payment again: the same answer and receipt; nothing forwarded or charged again.
    const ledgerBefore = await ledgerOf(receipt.transaction);
    const again = await send(r.id, sent[0]);
    expect(again.status).toBe(200);
    expect(again.text).toBe(text);
    expect(again.receipt).toBe(res.headers.get("payment-response"));
    expect(await paymentsOf(r.id)).toHaveLength(1);
    expect(forwardsTo(r.id)).toBe(1);
    expect(await ledgerOf(receipt.transaction)).toEqual(ledgerBefore);

    // The authorization cannot pay anything else: another resource of the same terms refuses it as used.
    const other = await uptoResource();
    const elsewhere = await send(other.id, sent[0]);
    expect(elsewhere.status).toBe(402);
    expect(unb64(elsewhere.required!).error).toBe("permit2_invalid_nonce");
    expect(await paymentsOf(other.id)).toHaveLength(0);
    expect(forwardsTo(other.id)).toBe(0);
  });

  it("a usage above the maximum is refused: 502 usage_exceeds_maximum, nothing captured, the authorization not spent", async () => {
    const r = await uptoResource();
    report = "101";
    const { sent, pay } = uptoPayer();
    const res = await pay(`${baseUrl()}/x402/r/${r.id}`);
    expect(res.status).toBe(502);
    const body = await res.json();
    expect(body.error).toMatchObject({ code: "UPSTREAM_ERROR", details: { reason: "usage_exceeds_maximum", units: 101, maxAmount: MAX } });
    expect(JSON.stringify(body)).not.toContain('"tokens"'); // the content is withheld
    expect(await paymentsOf(r.id)).toHaveLength(0);
    // Nothing moved, so the same authorization can still pay a usage within it.
    report = "100";
    const within = await send(r.id, sent[0]);
    expect(within.status).toBe(200);
    const payments = await paymentsOf(r.id);
    expect(payments.map((p) => p.amount)).toEqual([MAX]);
    expect(await ledgerOf(payments[0].id)).toMatchObject({ credited: MAX });
  });

  it("a usage not reported is refused (502 usage_not_reported, nothing charged); zero units answer without a charge", async () => {
    const r = await uptoResource();
    report = null;
    const missing = await uptoPayer().pay(`${baseUrl()}/x402/r/${r.id}`);
    expect(missing.status).toBe(502);
    expect((await missing.json()).error.details.reason).toBe("usage_not_reported");
    report = "0";
    const { sent, pay } = uptoPayer();
    const free = await pay(`${baseUrl()}/x402/r/${r.id}`);
    expect(free.status).toBe(200);
    expect(decodePaymentResponseHeader(free.headers.get("payment-response")!)).toMatchObject({
      success: true,
      amount: "0",
      transaction: "",
    });
    expect(await paymentsOf(r.id)).toHaveLength(0);
    // Answered once: the authorization is spent.
    const again = await send(r.id, sent[0]);
    expect(again.status).toBe(402);
    expect(unb64(again.required!).error).toBe("permit2_invalid_nonce");
    report = "37";
  });

  it("the exact scheme's payload is refused by an upto resource (and the upto payload by an exact one)", async () => {
    const r = await uptoResource();
    const exact = await call("POST", "/v1/paid_resources", {
      key: m.testKey,
      body: { name: "Fixed", amount: MAX, currency: "usd", url: `${origin.url}/fixed` },
    });
    const { sent, pay } = uptoPayer();
    expect((await pay(`${baseUrl()}/x402/r/${r.id}`)).status).toBe(200);
    const onExact = await send(exact.body.id, sent[0]);
    expect(onExact.status).toBe(402);
    expect(await paymentsOf(exact.body.id)).toHaveLength(0);
  });
});
