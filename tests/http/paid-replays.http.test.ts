// A paid request that survives a lost answer (docs/x402.md "Lost answers"): the stock @x402/fetch pays, its answer
// is lost, and the same PAYMENT-SIGNATURE sent again gets the same answer (body, PAYMENT-RESPONSE), never a second
// charge or forward: on one process, across two (the first request cut off after the settlement committed), and 20
// at once. The payment-identifier extension (@x402/extensions), the facilitator's idempotent settle and verify,
// resources that keep no answer (replayable: false), and a refunded forward's 502 answered again.
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm";
import { verifyReceiptSignatureJWS, type JWSSignedReceipt } from "@x402/extensions/offer-receipt";
import { appendPaymentIdentifierToExtensions, generatePaymentId } from "@x402/extensions/payment-identifier";
import { decodePaymentResponseHeader, wrapFetchWithPayment } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { serveFetch, type FetchServer } from "../helpers/fetch-server";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { receiptCommittedWithCapture } from "../helpers/payments";
import { startTestServer } from "../helpers/server";

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");
const unb64 = (text: string) => JSON.parse(Buffer.from(text, "base64").toString("utf8"));

let m: TestMerchant;
let other: TestMerchant;
let origin: FetchServer;
/** What the merchant's origin was asked (the resource id of each forward), and how long it takes to answer. */
const forwards: string[] = [];
let originDelayMs = 0;
let originFails = false;
let serverB: ServerProcess;

beforeAll(async () => {
  [m, other] = await Promise.all([createTestMerchant("replays"), createTestMerchant("replays other")]);
  origin = await serveFetch(async (request) => {
    forwards.push(request.headers.get("x-paid-resource") ?? "");
    if (originDelayMs) await new Promise((resolve) => setTimeout(resolve, originDelayMs));
    if (originFails) return new Response("down", { status: 503 });
    return Response.json({ answer: Math.random(), at: Date.now() });
  });
  serverB = await startTestServer();
}, 120_000);
afterAll(async () => {
  await origin?.close();
  await serverB?.stop();
});

async function resource(body: Record<string, unknown> = {}) {
  const res = await call("POST", "/v1/paid_resources", {
    key: m.testKey,
    body: { name: "Replayable", amount: 6, currency: "usd", url: `${origin.url}/answer`, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const forwardsTo = (id: string) => forwards.filter((x) => x === id).length;
const paymentsOf = (paidResourceId: string) => getDb().paymentIntent.count({ where: { paidResourceId } });

async function balanceUsd(key: string): Promise<number> {
  const res = await call("GET", "/v1/balance", { key });
  const sum = (list: { currency: string; amount: number }[]) => list.filter((b) => b.currency === "USD").reduce((s, b) => s + b.amount, 0);
  return sum(res.body.pending) + sum(res.body.payable);
}

/** The stock client, whose paid request's answer is lost: it throws as a dropped connection would; the header is kept. */
function payerWhoseAnswerIsLost() {
  const sent: string[] = [];
  const lossy = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const header = request.headers.get("payment-signature");
    const res = await fetch(request);
    if (!header) return res;
    sent.push(header);
    await res.arrayBuffer();
    throw new TypeError("fetch failed: the connection was reset");
  };
  const client = new x402Client().register("eip155:84532", new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())));
  return { sent, pay: wrapFetchWithPayment(lossy as typeof fetch, client) };
}

/** The stock client's payload for a resource's 402 (not sent), with the 402's extensions. */
async function payloadFor(resourceId: string, base = baseUrl(), maxTimeoutSeconds?: number) {
  const res = await fetch(`${base}/x402/r/${resourceId}`);
  expect(res.status).toBe(402);
  const required = unb64(res.headers.get("payment-required")!);
  if (maxTimeoutSeconds) required.accepts[0].maxTimeoutSeconds = maxTimeoutSeconds; // the client signs validBefore = now + this
  const client = new x402Client().register("eip155:84532", new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())));
  return { payload: JSON.parse(JSON.stringify(await client.createPaymentPayload(required))), required };
}

async function send(resourceId: string, header: string, base = baseUrl(), signal?: AbortSignal) {
  const res = await fetch(`${base}/x402/r/${resourceId}`, { headers: { "PAYMENT-SIGNATURE": header }, signal });
  return { status: res.status, body: await res.text(), receipt: res.headers.get("payment-response") };
}

describe("the same x402 payment after a lost answer", () => {
  it("the stock @x402/fetch pays, the answer is lost; the same PAYMENT-SIGNATURE three more times: the same 200, one charge, one forward", async () => {
    const r = await resource();
    const before = await balanceUsd(m.testKey);
    const { sent, pay } = payerWhoseAnswerIsLost();
    await expect(pay(`${baseUrl()}/x402/r/${r.id}`)).rejects.toThrow();
    expect(sent).toHaveLength(1);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await send(r.id, sent[0]));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(new Set(answers.map((a) => a.receipt)).size).toBe(1);
    const receipt = decodePaymentResponseHeader(answers[0].receipt!);
    expect(receipt).toMatchObject({ success: true, transaction: expect.stringMatching(/^pi_/) });
    // Its receipts: the service's (the API's own JWS) and the offer-receipt extension's (the did:web key).
    const stored = await call("GET", `/v1/payment_intents/${receipt.transaction}/receipt`, { key: m.testKey });
    expect(receipt.extensions?.["service-receipt"]).toEqual({ jws: stored.body.jws });
    // Signed in the sale: the receipt's row committed with the capture, not in a statement of its own after it.
    expect(await receiptCommittedWithCapture(receipt.transaction)).toBe(true);
    const offerReceipt = (receipt.extensions?.["offer-receipt"] as { info: { receipt: JWSSignedReceipt } }).info.receipt;
    expect(await verifyReceiptSignatureJWS(offerReceipt)).toMatchObject({
      resourceUrl: `${baseUrl()}/x402/r/${r.id}`,
      network: "eip155:84532",
      transaction: receipt.transaction,
      payer: receipt.payer,
    });
    expect(await paymentsOf(r.id)).toBe(1);
    expect(forwardsTo(r.id)).toBe(1);
    expect(await balanceUsd(m.testKey)).toBe(before + 6);
    // The answer is kept sealed, never in the clear.
    const kept = await getDb().paidAnswer.findUniqueOrThrow({ where: { paymentIntentId: receipt.transaction } });
    expect(Buffer.from(kept.bodySealed!).toString("latin1")).not.toContain("answer");
  });

  it("across two processes: the first request cut off after the settlement committed; the retry on the other process gets the paid answer", async () => {
    const r = await resource();
    const { payload } = await payloadFor(r.id);
    const header = b64(payload);
    originDelayMs = 1_500;
    try {
      const abort = new AbortController();
      const first = send(r.id, header, baseUrl(), abort.signal).catch((err: Error) => err);
      // Cut off once the payment is in the ledger (the forward is still running on the first process).
      for (let i = 0; i < 100 && (await paymentsOf(r.id)) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      abort.abort();
      expect(await first).toBeInstanceOf(Error);
      const retry = await send(r.id, header, serverB.url);
      expect(retry.status).toBe(200);
      expect(JSON.parse(retry.body)).toMatchObject({ answer: expect.any(Number) });
      expect(await paymentsOf(r.id)).toBe(1);
      expect(forwardsTo(r.id)).toBe(1);
    } finally {
      originDelayMs = 0;
    }
  });

  it("20 concurrent replays of one settled payload, on two processes: 20 identical answers and one PaymentIntent", async () => {
    const r = await resource();
    const { payload } = await payloadFor(r.id);
    const header = b64(payload);
    const first = await send(r.id, header);
    expect(first.status).toBe(200);
    const replays = await Promise.all(Array.from({ length: 20 }, (_, i) => send(r.id, header, i % 2 ? serverB.url : baseUrl())));
    expect(replays.map((x) => x.status)).toEqual(Array(20).fill(200));
    expect(new Set(replays.map((x) => `${x.body}|${x.receipt}`))).toEqual(new Set([`${first.body}|${first.receipt}`]));
    expect(await paymentsOf(r.id)).toBe(1);
    expect(forwardsTo(r.id)).toBe(1);
  });

  it("a payment sent again after its authorization's window closed still gets its first answer", async () => {
    const r = await resource({ url: undefined, content: { fixed: true } });
    const { payload } = await payloadFor(r.id, baseUrl(), 9); // valid for 9 s, of which settling wants 6 left
    const header = b64(payload);
    expect((await send(r.id, header)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 4_000)); // now it could no longer be settled
    const later = await send(r.id, header);
    expect(later.status).toBe(200);
    expect(JSON.parse(later.body)).toEqual({ fixed: true });
  });

  it("the request making the answer died (its lease ran out, no answer): the retry makes it, even after a price change; one PaymentIntent", async () => {
    const r = await resource();
    const { payload } = await payloadFor(r.id);
    const header = b64(payload);
    expect((await send(r.id, header)).status).toBe(200);
    const pi = await getDb().paymentIntent.findFirstOrThrow({ where: { paidResourceId: r.id } });
    // As a process killed mid-forward leaves it: the row, no answer, its lease run out. And the merchant reprices.
    await getDb()
      .$executeRaw`UPDATE paid_answers SET answered_at = NULL, status = NULL, body_sealed = NULL, forward_until = now() - interval '1 second' WHERE payment_intent_id = ${pi.id}`;
    expect((await call("POST", `/v1/paid_resources/${r.id}`, { key: m.testKey, body: { amount: 9 } })).status).toBe(200);
    const retry = await send(r.id, header);
    expect(retry.status).toBe(200);
    expect(forwardsTo(r.id)).toBe(2); // the one case the merchant's server is asked again: its first answer was never kept
    expect(await paymentsOf(r.id)).toBe(1);
    expect(await send(r.id, header)).toEqual(retry);
  });

  it("a payment header nested thousands deep is a 400, never a 500", async () => {
    const r = await resource({ url: undefined, content: { x: 1 } });
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const header = Buffer.from(`{"x402Version":2,"payload":${deep}}`).toString("base64");
    const res = await fetch(`${baseUrl()}/x402/r/${r.id}`, { headers: { "PAYMENT-SIGNATURE": header } });
    expect(res.status).toBe(400);
    const facilitator = await fetch(`${baseUrl()}/x402/settle`, {
      method: "POST",
      headers: { Authorization: `Bearer ${m.testKey}`, "Content-Type": "application/json" },
      body: `{"x402Version":2,"paymentPayload":{"x402Version":2,"payload":${deep}},"paymentRequirements":{}}`,
    });
    expect(facilitator.status).toBeLessThan(500);
  });

  it("an altered payload (another signature) unlocks nothing: refused, nothing charged", async () => {
    const r = await resource({ url: undefined, content: { secret: 1 } });
    const { payload } = await payloadFor(r.id);
    expect((await send(r.id, b64(payload))).status).toBe(200);
    const altered = structuredClone(payload);
    altered.payload.signature = `${altered.payload.signature.slice(0, -4)}0000`;
    const res = await send(r.id, b64(altered));
    expect(res.status).toBe(402);
    expect(res.body).not.toContain("secret");
    expect(await paymentsOf(r.id)).toBe(1);
  });

  it("replayable: false keeps no answer: the replay is 409 replay_not_stored with the PaymentIntent, never a second charge", async () => {
    const r = await resource({ replayable: false });
    expect(r.replayable).toBe(false);
    const { payload } = await payloadFor(r.id);
    const header = b64(payload);
    const first = await send(r.id, header);
    expect(first.status).toBe(200);
    const pi = decodePaymentResponseHeader(first.receipt!).transaction;
    const kept = await getDb().paidAnswer.findUniqueOrThrow({ where: { paymentIntentId: pi } });
    expect(kept).toMatchObject({ bodySealed: null, notStored: true });
    const replay = await send(r.id, header);
    expect(replay.status).toBe(409);
    expect(JSON.parse(replay.body).error).toMatchObject({
      code: "CONFLICT",
      details: { reason: "replay_not_stored", paymentIntentId: pi },
    });
    expect(await paymentsOf(r.id)).toBe(1);
    expect(forwardsTo(r.id)).toBe(1);
  });

  it("a forward that failed and was refunded: its replay is the same 502, never a new forward", async () => {
    const r = await resource();
    const { payload } = await payloadFor(r.id);
    const header = b64(payload);
    originFails = true;
    let first;
    try {
      first = await send(r.id, header);
    } finally {
      originFails = false;
    }
    expect(first.status).toBe(502);
    const error = JSON.parse(first.body).error;
    expect(error.details).toMatchObject({ reason: "forward_failed", refundId: expect.stringMatching(/^re_/) });
    const replay = await send(r.id, header);
    expect(replay.status).toBe(502);
    expect(JSON.parse(replay.body).error).toMatchObject({ code: error.code, message: error.message, details: error.details });
    expect(forwardsTo(r.id)).toBe(1);
    expect(await paymentsOf(r.id)).toBe(1);
  });
});

describe("the payment-identifier extension", () => {
  it("is advertised in the 402; the same id with the same payload gets the first result, with another payload 409 and nothing moved", async () => {
    const r = await resource({ url: undefined, content: { id: "pid" } });
    const { payload, required } = await payloadFor(r.id);
    expect(required.extensions["payment-identifier"]).toMatchObject({ info: { required: false } });
    const id = generatePaymentId();
    appendPaymentIdentifierToExtensions(payload.extensions, id);
    const first = await send(r.id, b64(payload));
    expect(first.status).toBe(200);
    expect(await send(r.id, b64(payload))).toEqual(first);

    const { payload: another } = await payloadFor(r.id);
    appendPaymentIdentifierToExtensions(another.extensions, id);
    const conflict = await send(r.id, b64(another));
    expect(conflict.status).toBe(409);
    expect(JSON.parse(conflict.body).error.details.reason).toBe("payment_identifier_conflict");
    expect(await paymentsOf(r.id)).toBe(1);

    // At the facilitator too.
    const body = (p: unknown) => ({ x402Version: 2, paymentPayload: p, paymentRequirements: (p as { accepted: unknown }).accepted });
    const { payload: third } = await payloadFor(r.id);
    appendPaymentIdentifierToExtensions(third.extensions, id);
    const settle = await call("POST", "/x402/settle", { key: m.testKey, body: body(third) });
    expect(settle.status).toBe(409);
    expect(settle.body).toMatchObject({ success: false, errorReason: "payment_identifier_conflict" });
  });
});

describe("the payment-identifier extension's schema", () => {
  it("is ours, not the one the client echoes: a schema that refuses every id is ignored, a malformed id is still refused", async () => {
    const r = await resource({ url: undefined, content: { schema: 1 } });
    // Compiling a client's schema would cost a new Ajv per request and let the client choose the work.
    const { payload } = await payloadFor(r.id);
    appendPaymentIdentifierToExtensions(payload.extensions, generatePaymentId());
    payload.extensions["payment-identifier"].schema = { type: "object", properties: { id: { type: "string", maxLength: 1 } } };
    expect((await send(r.id, b64(payload))).status).toBe(200);

    const { payload: malformed } = await payloadFor(r.id);
    malformed.extensions["payment-identifier"] = { info: { required: false, id: "short" }, schema: {} };
    const refused = await send(r.id, b64(malformed));
    expect(refused.status).toBe(402);
    expect(await paymentsOf(r.id)).toBe(1);
  });
});

describe("the facilitator's settle and verify of a payment settled before", () => {
  it("settle twice: two success: true with one transaction (the second marked replayed); verify then says valid; another merchant is refused", async () => {
    const r = await resource({ url: undefined, content: { f: 1 } });
    const { payload } = await payloadFor(r.id);
    const body = { x402Version: 2, paymentPayload: payload, paymentRequirements: payload.accepted };
    const before = await balanceUsd(m.testKey);
    const first = await call("POST", "/x402/settle", { key: m.testKey, body });
    expect(first.body).toMatchObject({ success: true, transaction: expect.stringMatching(/^pi_/) });
    expect(first.body.extensions.replayed).toBeUndefined();
    const second = await call("POST", "/x402/settle", { key: m.testKey, body, base: serverB.url });
    expect(second.body).toMatchObject({ success: true, transaction: first.body.transaction, extensions: { replayed: true } });
    const verify = await call("POST", "/x402/verify", { key: m.testKey, body });
    expect(verify.body).toEqual({ isValid: true, payer: payload.payload.authorization.from });
    expect(await balanceUsd(m.testKey)).toBe(before + 6);
    for (const path of ["/x402/settle", "/x402/verify"]) {
      const elsewhere = await call("POST", path, { key: other.testKey, body });
      expect(elsewhere.body.success ?? elsewhere.body.isValid).toBe(false);
    }
  });
});
