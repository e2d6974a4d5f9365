// POST /mpp/verify (docs/mpp.md): a merchant's own app, made with the real mppx/server and the SDK's
// `service` method (serviceServerMethod), is paid by the real mppx client (serviceClientMethod minting a fresh
// spt_ with the payer's own key) and settles into the merchant's ledger here: a captured PaymentIntent with
// source "mpp", the balance up by the price, a Payment-Receipt naming it. Replays, expired challenges, tokens
// that may not pay, and malformed credentials are refused with nothing charged, never a 500.
import { Challenge, Credential, Receipt } from "mppx";
import { Mppx as ClientMppx } from "mppx/client";
import { Mppx as NextMppx } from "mppx/nextjs";
import { Mppx as ServerMppx } from "mppx/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { verifyLedger } from "../../lib/ledger/verify-ledger";
import { ServiceClient } from "agent-payments-sdk";
import { mintTokenFor, service, serviceClientMethod, serviceServerMethod } from "agent-payments-sdk/mpp";
import { dashboardMerchant, dashboardPage, type DashboardMerchant } from "../helpers/dashboard";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { sleep, paymentEventTypesFor, CAPTURED_OR_SETTLED } from "../helpers/payments";
import { serveFetch, type FetchServer } from "../helpers/fetch-server";

const PRICE = 500;
let payee: DashboardMerchant & { merchantId: string };
let payer: TestMerchant;
let other: TestMerchant;
let shop: FetchServer;

beforeAll(async () => {
  const [dm, p, o] = await Promise.all([dashboardMerchant("MPP shop"), createTestMerchant("MPP payer"), createTestMerchant("MPP other")]);
  const merchantId = await merchantIdOf(dm.key);
  payee = { ...dm, merchantId };
  payer = p;
  other = o;

  // The merchant's own app: mppx/server with the SDK's method, settling through POST /mpp/verify.
  const mppx = ServerMppx.create({
    methods: [serviceServerMethod({ client: new ServiceClient({ baseUrl: baseUrl(), apiKey: payee.key, maxRetries: 0 }) })],
    secretKey: "shop-secret-key-of-at-least-32-bytes-0123456789",
    realm: "shop.test",
  });
  shop = await serveFetch(async (request) => {
    const { pathname } = new URL(request.url);
    const amount = pathname === "/big" ? "5000" : String(PRICE);
    const result = await mppx.charge({ amount, currency: "usd", recipient: payee.merchantId, description: "Weather report" })(request);
    if (result.status === 402) return result.challenge;
    return result.withReceipt(Response.json({ report: "sunny", path: pathname }));
  });
});
afterAll(() => shop?.close());

async function merchantIdOf(key: string): Promise<string> {
  // A throwaway checkout names its merchant only through the DB row; read it there.
  const checkout = await call("POST", "/v1/checkouts", { key, body: { amount: 100, currency: "usd" } });
  const row = await getDb().checkout.findUniqueOrThrow({ where: { id: checkout.body.id } });
  return row.merchantId;
}

const payerClient = () => new ServiceClient({ baseUrl: baseUrl(), apiKey: payer.testKey, maxRetries: 0 });

async function balanceTotal(key: string): Promise<number> {
  const body = (await call("GET", "/v1/balance", { key })).body;
  return [...body.pending, ...body.payable].filter((b: any) => b.currency === "USD").reduce((sum: number, b: any) => sum + b.amount, 0);
}

async function mppPayments(merchantId: string): Promise<number> {
  return getDb().paymentIntent.count({ where: { merchantId, source: "mpp" } });
}

async function mint(body: Record<string, unknown> = {}) {
  const res = await call("POST", "/v1/shared_payment_tokens", {
    key: payer.testKey,
    body: { paymentMethod: "pm_card_visa", maxAmount: 1000, currency: "usd", merchantId: payee.merchantId, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** The real mppx client paying with a fixed token (or a freshly minted one per challenge). */
function payingClient(token: (challenge: any) => string | Promise<string>) {
  return ClientMppx.create({ methods: [serviceClientMethod({ token })], polyfill: false });
}

/** One 402 from the shop and the credential the real client makes for it. */
async function credentialFor(path: string, token: string): Promise<string> {
  const first = await fetch(`${shop.url}${path}`);
  expect(first.status).toBe(402);
  return payingClient(() => token).createCredential(first);
}

async function expectRefusedProblem(res: Response, type: string) {
  expect(res.status).toBe(402);
  expect(res.headers.get("www-authenticate")).toMatch(/^Payment /);
  expect(res.headers.get("payment-receipt")).toBeNull();
  const problem = await res.json();
  expect(problem.type).toBe(`https://paymentauth.org/problems/${type}`);
  return problem;
}

describe("a merchant's own mppx/server app with the SDK's service method", () => {
  it("the real mppx client pays it with a freshly minted spt_: 200, content, Payment-Receipt, a captured PaymentIntent (source mpp), balance up", async () => {
    const before = await balanceTotal(payee.key);
    const minted: string[] = [];
    const client = payingClient(mintTokenFor(payerClient(), { paymentMethod: "pm_card_visa", onMint: (t) => minted.push(t.id) }));
    const res = await client.fetch(`${shop.url}/report`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ report: "sunny", path: "/report" });
    const receipt = Receipt.fromResponse(res);
    expect(receipt).toMatchObject({ method: "service", status: "success" });
    expect(receipt.reference).toMatch(/^pi_/);
    expect(minted).toHaveLength(1);

    const pi = (await call("GET", `/v1/payment_intents/${receipt.reference}`, { key: payee.key })).body;
    expect(pi).toMatchObject({
      status: CAPTURED_OR_SETTLED,
      amount: PRICE,
      amountCaptured: PRICE,
      currency: "USD",
      source: "mpp",
      paymentMethod: "pm_card_visa",
    });
    expect((await call("GET", `/v1/orders/${pi.orderId}`, { key: payee.key })).body).toMatchObject({
      status: "paid",
      amount: PRICE,
      source: "mpp",
    });
    expect(await paymentEventTypesFor(payee.key, pi.id)).toEqual(["payment_intent.captured"]);
    expect(await balanceTotal(payee.key)).toBe(before + PRICE);
    expect(await verifyLedger(getDb(), [payee.merchantId])).toEqual([]);
    // The payer's token is used, naming the PaymentIntent; the token was scoped to the challenge.
    const token = (await call("GET", `/v1/shared_payment_tokens/${minted[0]}`, { key: payer.testKey })).body;
    expect(token).toMatchObject({
      status: "redeemed",
      paymentIntentId: pi.id,
      maxAmount: PRICE,
      merchantId: payee.merchantId,
      redeemedAmount: PRICE,
    });
    // The challenge is recorded as used, linked to its PaymentIntent.
    const challenge = await getDb().mppChallenge.findUniqueOrThrow({ where: { paymentIntentId: pi.id } });
    expect(challenge).toMatchObject({ merchantId: payee.merchantId, resourceId: null, tokenId: minted[0], amount: PRICE, currency: "USD" });

    // The dashboard shows it with the MPP badge (payments and orders, filtered by source).
    const payments = await dashboardPage(payee.session, "/dashboard/payments?source=mpp");
    expect(payments.status).toBe(200);
    expect(payments.html).toContain(pi.id);
    expect(new Set([...payments.html.matchAll(/data-source="([a-z0-9_]+)"/g)].map((m) => m[1]))).toEqual(new Set(["mpp"]));
    expect(payments.html).toMatch(/data-source="mpp"[^>]*>MPP</);
    const orders = await dashboardPage(payee.session, "/dashboard/orders?source=mpp");
    expect(orders.html).toContain(pi.orderId);
    expect((await dashboardPage(payee.session, `/dashboard/payments/${pi.id}`)).html).toContain('data-source="mpp"');
    // ...and the API lists it under ?source=mpp.
    expect((await call("GET", "/v1/payment_intents?source=mpp", { key: payee.key })).body.data.map((p: any) => p.id)).toContain(pi.id);
  });

  it("the same credential again gets the same content and receipt (/mpp/verify answers its first result, replayed) and nothing moves", async () => {
    const token = await mint();
    const credential = await credentialFor("/report", token.id);
    const ok = await fetch(`${shop.url}/report`, { headers: { Authorization: credential } });
    expect(ok.status).toBe(200);
    const content = await ok.text();
    const reference = Receipt.fromResponse(ok).reference;
    const before = await balanceTotal(payee.key);
    const count = await mppPayments(payee.merchantId);

    const replay = await fetch(`${shop.url}/report`, { headers: { Authorization: credential } });
    expect(replay.status).toBe(200);
    expect(await replay.text()).toBe(content);
    expect(Receipt.fromResponse(replay).reference).toBe(reference);

    const direct = await call("POST", "/mpp/verify", { key: payee.key, body: { credential } });
    expect(direct.status).toBe(200);
    expect(direct.body).toMatchObject({ replayed: true, receipt: { reference }, paymentIntent: { id: reference } });
    // Another merchant cannot learn or take it.
    const elsewhere = await call("POST", "/mpp/verify", { key: other.testKey, body: { credential } });
    expect(elsewhere.status).not.toBe(200);
    expect(await mppPayments(payee.merchantId)).toBe(count);
    expect(await balanceTotal(payee.key)).toBe(before);
  });

  it("refuses a used token, an expired token, a token for another merchant and an amount above maxAmount: 402 with a fresh challenge, nothing charged", async () => {
    const used = await mint();
    expect((await payingClient(() => used.id).fetch(`${shop.url}/report`)).status).toBe(200);
    const expiring = await mint({ expiresAt: new Date(Date.now() + 1500).toISOString() });
    const forOther = await mint({ merchantId: other.merchantId });
    const small = await mint({ maxAmount: PRICE - 1 });
    await sleep(1600);

    const before = await balanceTotal(payee.key);
    const count = await mppPayments(payee.merchantId);
    const cases: [string, string, string][] = [
      ["used", used.id, "verification-failed"],
      ["expired", expiring.id, "verification-failed"],
      ["other merchant", forOther.id, "verification-failed"],
      ["above maxAmount", small.id, "payment-insufficient"],
      ["unknown token", "spt_000000000000000000000000", "verification-failed"],
    ];
    for (const [label, tokenId, type] of cases) {
      const res = await fetch(`${shop.url}/report`, { headers: { Authorization: await credentialFor("/report", tokenId) } });
      const problem = await expectRefusedProblem(res, type);
      expect(problem.challengeId, label).toBeTruthy();
    }
    expect(await mppPayments(payee.merchantId)).toBe(count);
    expect(await balanceTotal(payee.key)).toBe(before);
    for (const t of [expiring, forOther, small]) {
      expect((await call("GET", `/v1/shared_payment_tokens/${t.id}`, { key: payer.testKey })).body.paymentIntentId).toBeNull();
    }
    // A refused token did not use up the challenge: the same credential with a good token still pays once.
    const good = await mint();
    const first = await fetch(`${shop.url}/report`);
    const challenge = Challenge.fromResponse(first, { methods: [service] });
    const retry = Credential.serialize({ challenge, payload: { spt: small.id } });
    expect((await fetch(`${shop.url}/report`, { headers: { Authorization: retry } })).status).toBe(402);
    const paid = await fetch(`${shop.url}/report`, {
      headers: { Authorization: Credential.serialize({ challenge, payload: { spt: good.id } }) },
    });
    expect(paid.status).toBe(200);
  });
});

describe("a merchant's Next.js route handler made with mppx/nextjs", () => {
  it("settles through the SDK's method into the merchant's ledger, once per challenge", async () => {
    const mppx = NextMppx.create({
      methods: [
        serviceServerMethod({
          client: new ServiceClient({ baseUrl: baseUrl(), apiKey: payee.key, maxRetries: 0 }),
          defaults: { currency: "usd", recipient: payee.merchantId },
        }),
      ],
      secretKey: "next-shop-secret-key-of-at-least-32-bytes-0123",
      realm: "next.shop.test",
    });
    // What a merchant writes in app/api/report/route.ts: export const GET = mppx.charge({...})(handler)
    const GET = mppx.charge({ amount: "275", description: "Next.js report" })(async () => Response.json({ report: "from next" }));
    const app = await serveFetch(async (request) => GET(request));
    try {
      const before = await balanceTotal(payee.key);
      const token = await mint();
      const first = await fetch(`${app.url}/api/report`);
      expect(first.status).toBe(402);
      const credential = await payingClient(() => token.id).createCredential(first);
      const paid = await fetch(`${app.url}/api/report`, { headers: { Authorization: credential } });
      expect(paid.status).toBe(200);
      expect(await paid.json()).toEqual({ report: "from next" });
      const receipt = Receipt.fromResponse(paid);
      expect((await call("GET", `/v1/payment_intents/${receipt.reference}`, { key: payee.key })).body).toMatchObject({
        status: CAPTURED_OR_SETTLED,
        amount: 275,
        source: "mpp",
      });
      expect(await balanceTotal(payee.key)).toBe(before + 275);
      const replay = await fetch(`${app.url}/api/report`, { headers: { Authorization: credential } });
      expect(replay.status).toBe(200);
      expect(Receipt.fromResponse(replay).reference).toBe(receipt.reference);
      expect(await balanceTotal(payee.key)).toBe(before + 275);
    } finally {
      await app.close();
    }
  });
});

describe("POST /mpp/verify directly", () => {
  function credential(overrides: { challenge?: Record<string, unknown>; payload?: unknown } = {}) {
    const challenge = Challenge.from({
      secretKey: "any-merchant-secret-key-0123456789abcdef",
      realm: "shop.test",
      method: "service",
      intent: "charge",
      request: { amount: "300", currency: "usd", recipient: payee.merchantId },
      expires: new Date(Date.now() + 60_000).toISOString(),
    });
    return Credential.serialize({
      challenge: { ...challenge, ...overrides.challenge } as any,
      payload: overrides.payload ?? { spt: "spt_000000000000000000000000" },
    });
  }

  it("settles a credential once and answers the receipt's fields", async () => {
    const token = await mint();
    const cred = credential({ payload: { spt: token.id } });
    const res = await call("POST", "/mpp/verify", { key: payee.key, body: { credential: cred } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      object: "mpp_verification",
      receipt: { method: "service", status: "success", reference: res.body.paymentIntent.id },
      paymentIntent: { status: "captured", amount: 300, source: "mpp" },
    });
    const stored = await call("GET", `/v1/payment_intents/${res.body.paymentIntent.id}/receipt`, { key: payee.key });
    expect(res.body.receipt.serviceReceipt).toBe(stored.body.jws);
    // Without the "Payment " prefix too; the second time it is the same credential: its first result, replayed.
    const again = await call("POST", "/mpp/verify", { key: payee.key, body: { credential: cred.replace(/^Payment /, "") } });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ replayed: true, receipt: res.body.receipt, paymentIntent: { id: res.body.paymentIntent.id } });
    // The same challenge with another token is refused: challenge_used.
    const another = await mint();
    const sameChallenge = { ...Credential.deserialize(cred).challenge };
    const stolen = await call("POST", "/mpp/verify", {
      key: payee.key,
      body: { credential: credential({ challenge: sameChallenge, payload: { spt: another.id } }) },
    });
    expect(stolen.status).toBe(409);
    expect(stolen.body.error.details.reason).toBe("challenge_used");
  });

  it("an expired challenge is 410 challenge_expired; nothing charged, the token still active", async () => {
    const token = await mint();
    const cred = credential({ challenge: { expires: new Date(Date.now() - 1000).toISOString() }, payload: { spt: token.id } });
    const res = await call("POST", "/mpp/verify", { key: payee.key, body: { credential: cred } });
    expect(res.status).toBe(410);
    expect(res.body.error.details.reason).toBe("challenge_expired");
    expect((await call("GET", `/v1/shared_payment_tokens/${token.id}`, { key: payer.testKey })).body.status).toBe("active");
  });

  it("bad input is 4xx in the error contract, never a 500", async () => {
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const good = JSON.parse(Buffer.from(credential().replace(/^Payment /, ""), "base64url").toString());
    const cases: [unknown, number, string | null][] = [
      [{ credential: "Payment !!!not-base64!!!" }, 400, "malformed_credential"],
      [{ credential: `Payment ${Buffer.from("not json").toString("base64url")}` }, 400, "malformed_credential"],
      [{ credential: b64({ payload: { spt: "spt_x" } }) }, 400, "malformed_credential"],
      [{ credential: b64({ ...good, challenge: { ...good.challenge, method: "tempo" } }) }, 400, "method_unsupported"],
      [{ credential: b64({ ...good, challenge: { ...good.challenge, intent: "session" } }) }, 400, "method_unsupported"],
      [{ credential: b64({ ...good, payload: { token: "x" } }) }, 400, "invalid_payload"],
      [{ credential: b64({ ...good, payload: { spt: "spt_" + "a".repeat(100) } }) }, 400, "invalid_payload"],
      [{ credential: b64({ ...good, challenge: { ...good.challenge, expires: undefined } }) }, 400, "malformed_credential"],
      [
        { credential: b64({ ...good, challenge: { ...good.challenge, request: b64({ amount: "-5", currency: "usd" }) } }) },
        400,
        "invalid_challenge",
      ],
      [
        { credential: b64({ ...good, challenge: { ...good.challenge, request: b64({ amount: "99999999999", currency: "usd" }) } }) },
        400,
        "invalid_challenge",
      ],
      [{ credential: "x".repeat(9000) }, 400, null],
      [{ credential: 42 }, 400, null],
      [{}, 400, null],
      [{ credential: "Payment abc", extra: 1 }, 400, null],
    ];
    for (const [body, status, reason] of cases) {
      const res = await call("POST", "/mpp/verify", { key: payee.key, body });
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(status);
      expect(res.body.error.code, JSON.stringify(res.body)).toBe("VALIDATION_ERROR");
      if (reason) expect(res.body.error.details.reason, JSON.stringify(body).slice(0, 200)).toBe(reason);
    }
    expect(
      (await call("POST", "/mpp/verify", { key: payee.key, rawBody: "{not json", headers: { "Content-Type": "application/json" } })).status,
    ).toBe(400);
    expect(
      (
        await call("POST", "/mpp/verify", {
          key: payee.key,
          rawBody: JSON.stringify({ credential: "a".repeat(64 * 1024) }),
          headers: { "Content-Type": "application/json" },
        })
      ).status,
    ).toBe(400);
    expect((await call("POST", "/mpp/verify", { body: { credential: credential() } })).status).toBe(401);
  });
});
