// Hosted paid resources over MPP (docs/mpp.md): GET /mpp/r/:id answers 402 with a `Payment` challenge of
// the service method bound to the resource and its price, and the real mppx client
// (Mppx.create({ methods: [serviceClientMethod(...)], polyfill: false })) pays it with a freshly minted spt_:
// 200, the content, Payment-Receipt, a captured PaymentIntent (source mpp, the resource's sale), the merchant's
// balance up. Replays, tokens that may not pay, challenges of another resource or price, expired challenges
// and malformed credentials are refused with RFC 9457 problem bodies and a fresh challenge, nothing charged.
// 50 concurrent redemptions of one token across two server processes make exactly one PaymentIntent.
import { createHmac } from "node:crypto";
import { Challenge, Credential, Receipt } from "mppx";
import { Mppx } from "mppx/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import { ServiceClient } from "agent-payments-sdk";
import { mintTokenFor, service, serviceClientMethod } from "agent-payments-sdk/mpp";
import type { ServerProcess } from "../../scripts/lib/server-process";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { serveFetch } from "../helpers/fetch-server";
import { rawRequest } from "../helpers/raw-request";
import { sleep, paymentEventTypesFor, CAPTURED_OR_SETTLED, receiptCommittedWithCapture } from "../helpers/payments";
import { startTestServer, TEST_SECRETS_KEY } from "../helpers/server";

const PRICE = 250;
let s1: ServerProcess;
let s2: ServerProcess;
let payee: TestMerchant;
let payer: TestMerchant;
let other: TestMerchant;
let resource: any;
let second: any;

beforeAll(async () => {
  [s1, s2] = await Promise.all([startTestServer({ RATE_LIMIT_MAX: "100000" }), startTestServer({ RATE_LIMIT_MAX: "100000" })]);
  [payee, payer, other] = await Promise.all([
    createTestMerchant("MPP hosted payee"),
    createTestMerchant("MPP hosted payer"),
    createTestMerchant("MPP hosted other"),
  ]);
  resource = await createResource({ name: "Forecast", amount: PRICE, currency: "usd", content: { forecast: "sunny", days: [1, 2, 3] } });
  second = await createResource({ name: "Tides", amount: PRICE, currency: "usd", content: { tides: "high" } });
});
afterAll(() => Promise.all([s1, s2].filter(Boolean).map((s) => s.stop())));

async function createResource(body: Record<string, unknown>) {
  const res = await call("POST", "/v1/paid_resources", { key: payee.testKey, base: s1.url, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const url = (id: string, s = s1) => `${s.url}/mpp/r/${id}`;

async function mint(body: Record<string, unknown> = {}) {
  const res = await call("POST", "/v1/shared_payment_tokens", {
    key: payer.testKey,
    base: s1.url,
    body: { paymentMethod: "pm_card_visa", maxAmount: 1000, currency: "usd", merchantId: payee.merchantId, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

function client(token: (challenge: any) => string | Promise<string>) {
  return Mppx.create({ methods: [serviceClientMethod({ token })], polyfill: false });
}

async function credentialFor(id: string, token: string, s = s1): Promise<string> {
  const first = await fetch(url(id, s));
  expect(first.status).toBe(402);
  return client(() => token).createCredential(first);
}

async function balanceTotal(): Promise<number> {
  const body = (await call("GET", "/v1/balance", { key: payee.testKey, base: s1.url })).body;
  return [...body.pending, ...body.payable].filter((b: any) => b.currency === "USD").reduce((sum: number, b: any) => sum + b.amount, 0);
}

const mppPayments = () => getDb().paymentIntent.count({ where: { merchantId: payee.merchantId, source: "mpp" } });

async function expectProblem(res: Response, status: number, type: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.headers.get("payment-receipt")).toBeNull();
  const problem = await res.json();
  expect(problem).toMatchObject({ status, type: type.startsWith("about:") ? type : `https://paymentauth.org/problems/${type}` });
  expect(typeof problem.title).toBe("string");
  expect(typeof problem.detail).toBe("string");
  if (status === 402) {
    const fresh = Challenge.fromResponse(res, { methods: [service] });
    expect(problem.challengeId).toBe(fresh.id);
    expect(fresh.request).toMatchObject({ externalId: expect.stringMatching(/^xr_/), amount: expect.any(String) });
  }
  return problem;
}

/** The service's challenge key as the servers derive it (lib/mpp/secret.ts), to forge what a client could not. */
const serviceSecret = () => createHmac("sha256", TEST_SECRETS_KEY).update("aps:mpp-challenge:v1").digest().toString("hex");

describe("GET /mpp/r/:id", () => {
  it("402 with a Payment challenge bound to the resource and its price, a problem body, no-store", async () => {
    const res = await fetch(url(resource.id));
    expect(res.headers.get("cache-control")).toBe("no-store");
    const problem = await expectProblem(res, 402, "payment-required");
    const challenge = Challenge.fromResponse(res, { methods: [service] });
    expect(challenge).toMatchObject({
      method: "service",
      intent: "charge",
      realm: "127.0.0.1",
      request: { amount: String(PRICE), currency: "usd", recipient: payee.merchantId, externalId: resource.id },
    });
    expect(challenge.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(challenge.expires!)).toBeGreaterThan(Date.now());
    expect(problem.challengeId).toBe(challenge.id);
    // Every challenge is distinct (a random nonce in opaque), each verifiable by either process.
    const again = Challenge.fromResponse(await fetch(url(resource.id, s2)), { methods: [service] });
    expect(again.id).not.toBe(challenge.id);
    expect(Challenge.verify(again, { secretKey: serviceSecret() })).toBe(true);
  });

  it("the real mppx client pays with a freshly minted spt_: 200, content, Payment-Receipt, captured PaymentIntent (source mpp, the resource's sale), balance up", async () => {
    const before = await balanceTotal();
    const minted: string[] = [];
    const payerClient = new ServiceClient({ baseUrl: s1.url, apiKey: payer.testKey, maxRetries: 0 });
    const res = await client(mintTokenFor(payerClient, { paymentMethod: "pm_card_visa", onMint: (t) => minted.push(t.id) })).fetch(
      url(resource.id),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ forecast: "sunny", days: [1, 2, 3] });
    const receipt = Receipt.fromResponse(res);
    expect(receipt).toMatchObject({ method: "service", status: "success", externalId: resource.id });
    const pi = (await call("GET", `/v1/payment_intents/${receipt.reference}`, { key: payee.testKey, base: s1.url })).body;
    expect(pi).toMatchObject({ status: CAPTURED_OR_SETTLED, amount: PRICE, currency: "USD", source: "mpp", paidResourceId: resource.id });
    expect((await call("GET", `/v1/orders/${pi.orderId}`, { key: payee.testKey, base: s1.url })).body).toMatchObject({
      status: "paid",
      source: "mpp",
    });
    expect(await balanceTotal()).toBe(before + PRICE);
    expect(await verifyLedger(getDb(), [payee.merchantId])).toEqual([]);
    expect((await call("GET", `/v1/shared_payment_tokens/${minted[0]}`, { key: payer.testKey, base: s1.url })).body).toMatchObject({
      status: "redeemed",
      paymentIntentId: pi.id,
    });
    const sales = (await call("GET", `/v1/payment_intents?paidResourceId=${resource.id}`, { key: payee.testKey, base: s1.url })).body.data;
    expect(sales.map((p: any) => p.id)).toContain(pi.id);
    // The usual events, and it refunds like any payment.
    expect(await paymentEventTypesFor(payee.testKey, pi.id)).toEqual(["payment_intent.captured"]);
    expect((await call("POST", "/v1/refunds", { key: payee.testKey, base: s1.url, body: { paymentIntentId: pi.id } })).status).toBe(201);
    expect((await call("GET", `/v1/orders/${pi.orderId}`, { key: payee.testKey, base: s1.url })).body).toMatchObject({
      status: "refunded",
      amountRefunded: PRICE,
    });
    expect(await balanceTotal()).toBe(before);
  });

  it("the same credential again (a lost answer) gets the same content and Payment-Receipt on either process; one charge", async () => {
    const token = await mint();
    const credential = await credentialFor(resource.id, token.id);
    const ok = await fetch(url(resource.id), { headers: { Authorization: credential } });
    expect(ok.status).toBe(200);
    // Paid content: never kept by a shared cache; a small one is sent as it is (fetch asks for gzip).
    expect(ok.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(ok.headers.get("content-encoding")).toBeNull();
    const content = await ok.text();
    const before = await balanceTotal();
    const count = await mppPayments();
    // The receipt carries the service's signed receipt of the payment (the API's own JWS).
    const paid = Receipt.deserialize(ok.headers.get("payment-receipt")!) as Receipt.Receipt & { serviceReceipt?: string };
    const stored = await call("GET", `/v1/payment_intents/${paid.reference}/receipt`, { key: payee.testKey });
    expect(paid.serviceReceipt).toBe(stored.body.jws);
    expect(await receiptCommittedWithCapture(paid.reference)).toBe(true); // signed in the sale's transaction
    for (const s of [s1, s2]) {
      const replay = await fetch(url(resource.id, s), { headers: { Authorization: credential } });
      expect(replay.status).toBe(200);
      expect(replay.headers.get("cache-control")).toBe("no-store, no-transform");
      expect(await replay.text()).toBe(content);
      expect(replay.headers.get("payment-receipt")).toBe(ok.headers.get("payment-receipt"));
    }
    expect(await mppPayments()).toBe(count);
    expect(await balanceTotal()).toBe(before);
    // A new challenge paid with the used token is a second payment, not a replay: refused.
    const second = await fetch(url(resource.id), { headers: { Authorization: await credentialFor(resource.id, token.id) } });
    expect(second.status).toBe(402);
    expect(await mppPayments()).toBe(count);
  });

  it("replayable: false: the same credential again is a 409 problem replay_not_stored naming the payment, never a 500 or a second charge", async () => {
    const kept = await createResource({ name: "Not kept", amount: PRICE, currency: "usd", content: { once: true }, replayable: false });
    const credential = await credentialFor(kept.id, (await mint()).id);
    const ok = await fetch(url(kept.id), { headers: { Authorization: credential } });
    expect(ok.status).toBe(200);
    const reference = Receipt.fromResponse(ok).reference;
    const replay = await fetch(url(kept.id, s2), { headers: { Authorization: credential } });
    const problem = await expectProblem(replay, 409, "about:blank");
    expect(problem).toMatchObject({ reason: "replay_not_stored", paymentIntentId: reference });
    expect(await getDb().paymentIntent.count({ where: { paidResourceId: kept.id } })).toBe(1);
  });

  it("a used token, an expired token, a token for another merchant, an amount above maxAmount: each refused, nothing charged", async () => {
    const used = await mint();
    expect((await client(() => used.id).fetch(url(resource.id))).status).toBe(200);
    const expiring = await mint({ expiresAt: new Date(Date.now() + 1500).toISOString() });
    const forOther = await mint({ merchantId: other.merchantId });
    const small = await mint({ maxAmount: PRICE - 1 });
    const revoked = await mint();
    expect(
      (await call("POST", `/v1/shared_payment_tokens/${revoked.id}/revoke`, { key: payer.testKey, base: s1.url, body: {} })).status,
    ).toBe(200);
    await sleep(1600);
    const before = await balanceTotal();
    const count = await mppPayments();
    const cases: [string, string, string, string][] = [
      ["used", used.id, "verification-failed", "token_redeemed"],
      ["expired", expiring.id, "verification-failed", "token_expired"],
      ["other merchant", forOther.id, "verification-failed", "merchant_mismatch"],
      ["above maxAmount", small.id, "payment-insufficient", "amount_exceeds_max"],
      ["revoked", revoked.id, "verification-failed", "token_revoked"],
      ["unknown", "spt_000000000000000000000000", "verification-failed", "not_found"],
    ];
    for (const [label, tokenId, type, reason] of cases) {
      const res = await fetch(url(resource.id), { headers: { Authorization: await credentialFor(resource.id, tokenId) } });
      const problem = await expectProblem(res, 402, type);
      expect(problem.reason, label).toBe(reason);
    }
    expect(await mppPayments()).toBe(count);
    expect(await balanceTotal()).toBe(before);
    expect(await verifyLedger(getDb(), [payee.merchantId])).toEqual([]);
  });

  it("a challenge of another resource, of an old price, expired, or forged is refused with a fresh challenge; the token stays unused", async () => {
    const token = await mint();
    const before = await mppPayments();
    // Another resource's challenge (genuine, same price, same merchant).
    const otherResource = await credentialFor(second.id, token.id);
    expect(
      (await expectProblem(await fetch(url(resource.id), { headers: { Authorization: otherResource } }), 402, "invalid-challenge")).detail,
    ).toContain("another resource");
    // The price changed after the challenge was issued.
    const priced = await createResource({ name: "Moving price", amount: 300, currency: "usd", content: { ok: true } });
    const oldPrice = await credentialFor(priced.id, token.id);
    expect(
      (await call("POST", `/v1/paid_resources/${priced.id}`, { key: payee.testKey, base: s1.url, body: { amount: 200 } })).status,
    ).toBe(200);
    expect(
      (await expectProblem(await fetch(url(priced.id), { headers: { Authorization: oldPrice } }), 402, "invalid-challenge")).detail,
    ).toContain("price");
    // Expired (signed with the service's key, so only the expiry is wrong).
    const request = { amount: String(PRICE), currency: "usd", recipient: payee.merchantId, externalId: resource.id };
    const expired = Challenge.from({
      secretKey: serviceSecret(),
      realm: "127.0.0.1",
      method: "service",
      intent: "charge",
      request,
      expires: new Date(Date.now() - 1000).toISOString(),
      meta: { nonce: "n1" },
    });
    await expectProblem(
      await fetch(url(resource.id), {
        headers: { Authorization: Credential.serialize({ challenge: expired, payload: { spt: token.id } }) },
      }),
      402,
      "payment-expired",
    );
    // Forged: another key, or a genuine challenge with its amount lowered.
    const forged = Challenge.from({
      secretKey: "not-the-service-key-0123456789abcdef0123",
      realm: "127.0.0.1",
      method: "service",
      intent: "charge",
      request,
      expires: new Date(Date.now() + 60_000).toISOString(),
    });
    await expectProblem(
      await fetch(url(resource.id), {
        headers: { Authorization: Credential.serialize({ challenge: forged, payload: { spt: token.id } }) },
      }),
      402,
      "invalid-challenge",
    );
    const genuine = Challenge.fromResponse(await fetch(url(resource.id)), { methods: [service] });
    const lowered = { ...genuine, request: { ...genuine.request, amount: "1" } };
    await expectProblem(
      await fetch(url(resource.id), {
        headers: { Authorization: Credential.serialize({ challenge: lowered, payload: { spt: token.id } }) },
      }),
      402,
      "invalid-challenge",
    );
    // HEAD with a good credential never pays: it gets the challenge.
    const head = await fetch(url(resource.id), { method: "HEAD", headers: { Authorization: await credentialFor(resource.id, token.id) } });
    expect(head.status).toBe(402);
    expect(head.headers.get("www-authenticate")).toMatch(/^Payment /);
    expect(await mppPayments()).toBe(before);
    expect((await call("GET", `/v1/shared_payment_tokens/${token.id}`, { key: payer.testKey, base: s1.url })).body.status).toBe("active");
  });

  it("bad input on every /mpp path is a 402/4xx problem body, never a 500", async () => {
    const count = await mppPayments();
    const good = JSON.parse(
      Buffer.from((await credentialFor(resource.id, "spt_000000000000000000000000")).replace(/^Payment /, ""), "base64url").toString(),
    );
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const cases: [string, number, string][] = [
      ["Payment !!!", 402, "malformed-credential"],
      ["Payment", 402, "malformed-credential"],
      ["Bearer sk_test_x", 402, "payment-required"],
      [`Payment ${Buffer.from("not json").toString("base64url")}`, 402, "malformed-credential"],
      [`Payment ${b64({ payload: {} })}`, 402, "malformed-credential"],
      [`Payment ${b64([1, 2])}`, 402, "malformed-credential"],
      [`Payment ${b64({ ...good, challenge: { ...good.challenge, method: "tempo" } })}`, 402, "method-unsupported"],
      [`Payment ${b64({ ...good, challenge: { ...good.challenge, intent: "session" } })}`, 402, "method-unsupported"],
      [`Payment ${b64({ ...good, payload: { spt: 42 } })}`, 402, "invalid-payload"],
      [`Payment ${b64({ ...good, payload: "spt_x" })}`, 402, "invalid-payload"],
      [`Payment ${b64({ ...good, challenge: { ...good.challenge, request: "%%%" } })}`, 402, "malformed-credential"],
      [`Payment ${"A".repeat(12_000)}`, 402, "malformed-credential"],
    ];
    for (const [authorization, status, type] of cases) {
      const res = await fetch(url(resource.id), { headers: { Authorization: authorization } });
      expect(res.status, authorization.slice(0, 80)).not.toBe(500);
      await expectProblem(res, status, type);
    }
    // Headers past Node's limit: its own 431, never a 500.
    const huge = await rawRequest(s1.url, "GET", `/mpp/r/${resource.id}`, { headers: { Authorization: `Payment ${"A".repeat(40_000)}` } });
    expect(huge.status).toBe(431);
    // Unknown, archived and impossible resources: 404 problem.
    await expectProblem(await fetch(url("xr_000000000000000000000000")), 404, "about:blank");
    await expectProblem(await fetch(url("not-an-id")), 404, "about:blank");
    const archived = await createResource({ name: "Gone", amount: 100, currency: "usd", content: { x: 1 } });
    expect((await call("DELETE", `/v1/paid_resources/${archived.id}`, { key: payee.testKey, base: s1.url })).status).toBe(200);
    await expectProblem(await fetch(url(archived.id)), 404, "about:blank");
    // Other methods, with huge bodies: 405 problem, the body never read.
    const post = await rawRequest(s1.url, "POST", `/mpp/r/${resource.id}`, { body: "x".repeat(1_000_000) });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
    expect(JSON.parse(post.text)).toMatchObject({ status: 405, title: "Method Not Allowed" });
    // Unknown /mpp paths and the wrong method on /mpp/verify.
    await expectProblem(await fetch(`${s1.url}/mpp/nothing`), 404, "about:blank");
    await expectProblem(await fetch(`${s1.url}/mpp/r/${resource.id}/more`), 404, "about:blank");
    expect((await fetch(`${s1.url}/mpp/verify`)).status).toBe(405);
    const verifyHuge = await fetch(`${s1.url}/mpp/verify`, {
      method: "POST",
      headers: { Authorization: `Bearer ${payee.testKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ credential: "A".repeat(1_000_000) }),
    });
    expect(verifyHuge.status).toBe(400);
    expect(await mppPayments()).toBe(count);
  });

  it("is limited per client IP: 429 problem with Retry-After", async () => {
    // Every server of the run shares one bucket table, and other files call public paths from 127.0.0.1 (their
    // takes refill the bucket at their own, larger, rate): these requests come through a trusted proxy from an
    // address of their own, so no one else takes from their bucket, and a one-hour window makes refill negligible.
    const limited = await startTestServer({ RATE_LIMIT_MAX: "3", RATE_LIMIT_WINDOW_MS: "3600000", TRUSTED_PROXY_HOPS: "1" });
    const hex = () => Math.floor(Math.random() * 0xffff).toString(16);
    const from = `2001:db8:${hex()}:${hex()}::1`;
    try {
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 5; i++) {
        last = await fetch(url(resource.id, limited), { headers: { "X-Forwarded-For": from } });
        statuses.push(last.status);
        if (last.status === 429) break;
      }
      expect(statuses).toEqual([402, 402, 402, 429]);
      expect(last!.headers.get("retry-after")).toMatch(/^\d+$/);
      await expectProblem(last!, 429, "about:blank");
    } finally {
      await limited.stop();
    }
  });
});

describe("forwarded resources (url)", () => {
  it("the paid request is forwarded after the payment committed (method, body, query, payment headers), with Payment-Receipt", async () => {
    const seen: any[] = [];
    const shop = await serveFetch(async (request) => {
      const u = new URL(request.url);
      if (u.pathname === "/fail") return new Response("down", { status: 503 });
      const entry = {
        method: request.method,
        query: u.search,
        body: await request.text(),
        paymentIntent: request.headers.get("x-payment-intent"),
        resource: request.headers.get("x-paid-resource"),
      };
      seen.push(entry);
      return Response.json(entry, { status: 201 });
    });
    try {
      const echo = await createResource({ name: "Echo", amount: 120, currency: "usd", url: `${shop.url}/echo?fixed=1`, method: "POST" });
      const unpaid = await fetch(url(echo.id), { method: "POST", body: "{}" });
      await expectProblem(unpaid, 402, "payment-required");
      expect(seen).toHaveLength(0);
      const token = await mint();
      const res = await client(() => token.id).fetch(`${url(echo.id)}?q=2`, {
        method: "POST",
        body: JSON.stringify({ hello: 1 }),
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(201);
      const receipt = Receipt.fromResponse(res);
      expect(await res.json()).toEqual({
        method: "POST",
        query: "?fixed=1&q=2",
        body: '{"hello":1}',
        paymentIntent: receipt.reference,
        resource: echo.id,
      });
      expect(seen).toHaveLength(1);
      expect((await call("GET", `/v1/payment_intents/${receipt.reference}`, { key: payee.testKey, base: s1.url })).body).toMatchObject({
        status: CAPTURED_OR_SETTLED,
        amount: 120,
        source: "mpp",
        paidResourceId: echo.id,
      });

      // The merchant's server fails: the payment is refunded and the payer gets 502, no receipt.
      const failing = await createResource({ name: "Failing", amount: 130, currency: "usd", url: `${shop.url}/fail` });
      const before = await balanceTotal();
      const token2 = await mint();
      const failed = await client(() => token2.id).fetch(url(failing.id));
      expect(failed.status).toBe(502);
      expect(failed.headers.get("payment-receipt")).toBeNull();
      const problem = await failed.json();
      expect(problem).toMatchObject({ status: 502, reason: "forward_failed", refundId: expect.stringMatching(/^re_/) });
      expect(
        (await call("GET", `/v1/payment_intents/${problem.paymentIntentId}`, { key: payee.testKey, base: s1.url })).body,
      ).toMatchObject({ amountRefunded: 130, source: "mpp" });
      expect(await balanceTotal()).toBe(before);
      expect(await verifyLedger(getDb(), [payee.merchantId])).toEqual([]);
    } finally {
      await shop.close();
    }
  });
});

describe("concurrency across two server processes", () => {
  it("50 concurrent credentials (50 challenges) paying with one spt_ through /mpp/r/:id: exactly one PaymentIntent", async () => {
    const token = await mint();
    const before = await balanceTotal();
    const credentials = await Promise.all(Array.from({ length: 50 }, (_, i) => credentialFor(resource.id, token.id, i % 2 ? s2 : s1)));
    const results = await Promise.all(
      credentials.map((c, i) => fetch(url(resource.id, i % 2 ? s1 : s2), { headers: { Authorization: c } })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200 && s !== 402)).toEqual([]);
    const pis = await getDb().paymentIntent.findMany({
      where: { merchantId: payee.merchantId, source: "mpp", status: { in: ["captured", "settled"] } },
      select: { id: true },
    });
    const tokenRow = await getDb().sharedPaymentToken.findUniqueOrThrow({ where: { id: token.id } });
    expect(tokenRow.status).toBe("redeemed");
    expect(await getDb().mppChallenge.count({ where: { tokenId: token.id, paymentIntentId: { not: null } } })).toBe(1);
    expect(pis.map((p) => p.id)).toContain(tokenRow.paymentIntentId);
    expect(await balanceTotal()).toBe(before + PRICE);
    expect(await verifyLedger(getDb(), [payee.merchantId])).toEqual([]);
  });

  it("one credential sent 50 times at once: one charge, and all 50 get the same paid answer and receipt", async () => {
    const token = await mint();
    const credential = await credentialFor(resource.id, token.id);
    const count = await mppPayments();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(url(resource.id, i % 2 ? s1 : s2), { headers: { Authorization: credential } }).then(async (res) => ({
          status: res.status,
          body: await res.text(),
          receipt: res.headers.get("payment-receipt"),
        })),
      ),
    );
    expect(results.map((r) => r.status).filter((status) => status !== 200)).toEqual([]);
    expect(new Set(results.map((r) => `${r.body} ${r.receipt}`)).size).toBe(1);
    expect(await mppPayments()).toBe(count + 1);
  });

  it("50 concurrent POST /v1/shared_payment_tokens/:id/redeem of one spt_: exactly one PaymentIntent", async () => {
    const token = await mint();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call("POST", `/v1/shared_payment_tokens/${token.id}/redeem`, {
          key: payee.testKey,
          base: (i % 2 ? s1 : s2).url,
          body: { amount: 300, currency: "usd" },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => ![201, 409, 410].includes(r.status))).toEqual([]);
    expect(await getDb().paymentIntent.count({ where: { merchantId: payee.merchantId, source: "spt" } })).toBe(1);
    expect((await getDb().sharedPaymentToken.findUniqueOrThrow({ where: { id: token.id } })).status).toBe("redeemed");
  });
});
