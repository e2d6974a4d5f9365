// AP2 v0.2 (docs/a2a.md "AP2 v0.2") against the real server: a buyer agent builds SD-JWT mandate chains with
// @sd-jwt/core (the buyer's key signs the mandate, the agent's key the key binding: aud, nonce, iat, sd_hash) and
// pays a merchant-signed checkout with a shared payment token; the signed receipts reference the mandates. An
// altered disclosure, a wrong key binding, an expired mandate and an open mandate over its budget are refused with
// nothing charged; 20 concurrent charges against one open mandate's budget never exceed it.
import { ES256 } from "@sd-jwt/crypto-nodejs";
import { calculateJwkThumbprint, createRemoteJWKSet, jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../lib/db";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { Ap2V02Buyer, hashOf, now, type Ap2CheckoutOffer, type Keys } from "../helpers/ap2-v02-buyer";

let seller: TestMerchant;
let buyer: TestMerchant;
let ap2: Ap2V02Buyer;
let user: Keys;
let agent: Keys;
let kid: string;
let product: { id: string };
let other: { id: string };

beforeAll(async () => {
  [seller, buyer] = await Promise.all([createTestMerchant("AP2 v0.2 seller"), createTestMerchant("AP2 v0.2 buyer")]);
  ap2 = new Ap2V02Buyer(seller, buyer, "AP2 v0.2 seller");
  await ap2.register();
  ({ user, agent, kid } = ap2);
  expect(kid).toBe(await calculateJwkThumbprint(user.publicKey as never, "sha256"));
  product = (await call("POST", "/v1/products", { key: seller.testKey, body: { name: "Coffee", unitAmount: 500, currency: "usd" } })).body;
  other = (await call("POST", "/v1/products", { key: seller.testKey, body: { name: "Tea", unitAmount: 400, currency: "usd" } })).body;
});

const signMandate = (...args: Parameters<Ap2V02Buyer["signMandate"]>) => ap2.signMandate(...args);
const bind = (...args: Parameters<Ap2V02Buyer["bind"]>) => ap2.bind(...args);
const checkout = (items = [{ product_id: product.id, quantity: 1 }]) => ap2.checkout(items);
const mintToken = (maxAmount?: number) => ap2.mintToken(maxAmount);
const payee = () => ap2.payee();
const closedCheckout = (co: Ap2CheckoutOffer) => ap2.closedCheckout(co);
const closedPayment = (co: Ap2CheckoutOffer, token: string) => ap2.closedPayment(co, token);
const humanPresent = (co: Ap2CheckoutOffer, token: string) => ap2.humanPresent(co, token);
const pay = (co: { id: string }, body: unknown) => ap2.pay(co, body);
const sellerPayments = () =>
  getDb().paymentIntent.aggregate({
    where: { merchantId: seller.merchantId, source: "ap2", status: { in: ["captured", "settled"] } },
    _count: true,
    _sum: { amountCaptured: true },
  });

describe("AP2 v0.2 mandates", () => {
  it("pays a checkout with human-present SD-JWT mandates; signed receipts reference the mandates; the nonce is single-use", async () => {
    const co = await checkout([{ product_id: product.id, quantity: 2 }]);
    expect(co.aud).toMatch(new RegExp(`/ap2/${seller.merchantId}$`));
    const jwks = createRemoteJWKSet(new URL(co.aud.replace(/\/ap2\/.*/, `/ap2/${seller.merchantId}/jwks.json`)));
    const { payload: signed } = await jwtVerify(co.checkout_jwt, jwks);
    expect(signed).toMatchObject({ id: co.id, currency: "USD", totals: [{ type: "total", amount: 1000 }] });
    const body = await humanPresent(co, await mintToken());
    const res = await pay(co, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ object: "ap2_payment", amount: 1000, currency: "USD" });
    const paymentReceipt = (await jwtVerify(res.body.payment_receipt, jwks)).payload;
    expect(paymentReceipt).toMatchObject({
      status: "Success",
      payment_id: res.body.payment_intent_id,
      reference: hashOf(body.payment_mandate.split("~~")[1]),
    });
    const checkoutReceipt = (await jwtVerify(res.body.checkout_receipt, jwks)).payload;
    expect(checkoutReceipt).toMatchObject({
      status: "Success",
      order_id: res.body.order_id,
      reference: hashOf(body.checkout_mandate.split("~~")[1]),
    });
    const pi = await call("GET", `/v1/payment_intents/${res.body.payment_intent_id}`, { key: seller.testKey });
    expect(pi.body).toMatchObject({ source: "ap2", status: expect.stringMatching(/^(captured|settled)$/), amount: 1000 });
    const row = await getDb().ap2Checkout.findUniqueOrThrow({ where: { id: co.id } });
    expect(row).toMatchObject({ paymentIntentId: res.body.payment_intent_id, paymentMandateRef: paymentReceipt.reference });
    expect(row.usedAt).not.toBeNull();

    const before = await sellerPayments();
    const replay = await pay(co, body);
    expect(replay.status).toBe(402);
    expect(replay.body.error.details).toMatchObject({ reason: "checkout_used_or_expired", ap2_error: "invalid_mandate" });
    expect(await sellerPayments()).toEqual(before);
  });

  it("the service's shared receipt names the mandate; a refusal answers AP2's signed Error receipts, nothing charged", async () => {
    const co = await checkout();
    const token = await mintToken();
    const body = await humanPresent(co, token);
    const jwks = createRemoteJWKSet(new URL(`${baseUrl()}/ap2/${seller.merchantId}/jwks.json`));
    const serviceJwks = createRemoteJWKSet(new URL(`${baseUrl()}/.well-known/jwks.json`));

    // Refused first (the key binding for another nonce): both receipts signed, status Error, referencing what was presented.
    const pm = await signMandate({ ...closedPayment(co, token), cnf: { jwk: agent.publicKey } });
    const wrong = { ...body, payment_mandate: await bind(pm, closedPayment(co, token), { aud: co.aud, nonce: "not-the-nonce" }) };
    const before = await sellerPayments();
    const refused = await pay(co, wrong);
    expect(refused.status, JSON.stringify(refused.body)).toBe(402);
    const details = refused.body.error.details;
    expect(details).toMatchObject({ reason: "invalid_key_binding", ap2_error: "invalid_credential" });
    const paymentError = (await jwtVerify(details.payment_receipt, jwks)).payload;
    expect(paymentError).toMatchObject({
      status: "Error",
      iss: co.aud,
      error: "invalid_credential",
      payment_id: "",
      reference: hashOf(wrong.payment_mandate.split("~~")[1]),
    });
    expect(paymentError.error_description).toContain("key binding");
    expect(typeof paymentError.iat).toBe("number");
    const checkoutError = (await jwtVerify(details.checkout_receipt, jwks)).payload;
    expect(checkoutError).toMatchObject({
      status: "Error",
      error: "invalid_credential",
      reference: hashOf(body.checkout_mandate.split("~~")[1]),
    });
    expect(checkoutError).not.toHaveProperty("order_id");
    expect(await sellerPayments()).toEqual(before);

    // Then paid: the service's receipt of the payment names the closed mandates by their hashes.
    const res = await pay(co, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const receipt = await call("GET", `/v1/payment_intents/${res.body.payment_intent_id}/receipt`, { key: seller.testKey });
    expect(receipt.status).toBe(200);
    const { payload: claims } = await jwtVerify(receipt.body.jws, serviceJwks);
    expect(claims).toMatchObject({
      paymentIntentId: res.body.payment_intent_id,
      source: "ap2",
      mandate: {
        protocol: "ap2",
        version: "0.2",
        checkoutId: co.id,
        paymentMandateReference: hashOf(body.payment_mandate.split("~~")[1]),
        checkoutMandateReference: hashOf(body.checkout_mandate.split("~~")[1]),
      },
    });
    expect(claims.mandate).not.toHaveProperty("openMandateId");
  });

  it("refuses an altered disclosure, a wrong key binding, a foreign audience and an expired mandate, with nothing charged", async () => {
    const co = await checkout();
    const token = await mintToken();
    const good = await humanPresent(co, token);
    const before = await sellerPayments();
    const expectRefused = async (body: unknown, reason: string) => {
      const res = await pay(co, body);
      expect(res.status, JSON.stringify(res.body)).toBe(402);
      expect(res.body.error.code).toBe("PAYMENT_DECLINED");
      expect(res.body.error.details.reason).toBe(reason);
    };

    // A disclosure of the buyer-signed mandate altered (the price in the checkout_jwt claim): not what was signed.
    const [root, hop] = good.checkout_mandate.split("~~");
    const parts = root.split("~");
    const idx = parts.findIndex((p, i) => i > 0 && Buffer.from(p, "base64url").toString().includes("checkout_jwt"));
    const decoded = JSON.parse(Buffer.from(parts[idx], "base64url").toString()) as unknown[];
    decoded[2] = `${String(decoded[2]).slice(0, -4)}AAAA`;
    parts[idx] = Buffer.from(JSON.stringify(decoded)).toString("base64url");
    await expectRefused({ ...good, checkout_mandate: `${parts.join("~")}~~${hop}` }, "altered_disclosure");

    // The key binding signed by another key than the mandate's cnf.
    const stranger = (await ES256.generateKeyPair()) as unknown as Keys;
    const pm = await signMandate({ ...closedPayment(co, token), cnf: { jwk: agent.publicKey } });
    await expectRefused({ ...good, payment_mandate: await bind(pm, closedPayment(co, token), co, stranger) }, "invalid_key_binding");
    // ... for another audience, with another nonce, or over another presentation (sd_hash).
    await expectRefused(
      { ...good, payment_mandate: await bind(pm, closedPayment(co, token), { aud: "https://elsewhere.example/ap2/x", nonce: co.nonce }) },
      "invalid_key_binding",
    );
    await expectRefused(
      { ...good, payment_mandate: await bind(pm, closedPayment(co, token), { aud: co.aud, nonce: "another-nonce" }) },
      "invalid_key_binding",
    );
    await expectRefused(
      { ...good, payment_mandate: await bind(pm, closedPayment(co, token), co, agent, { sd_hash: hashOf("x") }) },
      "invalid_key_binding",
    );
    // A mandate signed by a key nobody registered.
    const rogue = await signMandate({ ...closedPayment(co, token), cnf: { jwk: agent.publicKey } }, {}, {}, stranger);
    await expectRefused({ ...good, payment_mandate: await bind(rogue, closedPayment(co, token), co) }, "invalid_signature");
    // Expired: the buyer's mandate ended a while ago.
    const expired = await signMandate(
      { ...closedPayment(co, token), cnf: { jwk: agent.publicKey }, exp: now() - 3600 },
      {},
      { iat: now() - 7200, exp: now() - 3600 },
    );
    await expectRefused({ ...good, payment_mandate: await bind(expired, closedPayment(co, token), co) }, "mandate_expired");

    expect(await sellerPayments()).toEqual(before);
    const tokenRow = await getDb().sharedPaymentToken.findUniqueOrThrow({ where: { id: token } });
    expect(tokenRow.status).toBe("active");
    // Every refusal rolled back: the same checkout and token still pay once.
    const ok = await pay(co, good);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});

describe("AP2 v0.2 open (human-not-present) mandates", () => {
  const BUDGET_CENTS = 2500; // five coffees

  async function openMandates(budgetMajor: number, extra: Record<string, unknown>[] = []) {
    const cnf = { jwk: agent.publicKey };
    const openCheckout = await signMandate(
      {
        vct: "mandate.checkout.open.1",
        cnf,
        constraints: [
          {
            type: "checkout.line_items",
            items: [
              {
                id: "drink",
                acceptable_items: [
                  { id: product.id, title: "Coffee" },
                  { id: "prd_never", title: "Cocoa" },
                ],
                quantity: 1,
              },
            ],
          },
          { type: "checkout.allowed_merchants", allowed: [payee(), { id: "mer_someoneelse", name: "Other" }] },
        ],
      },
      { constraints: { 0: { items: { 0: { acceptable_items: { _sd: [0, 1] } } } }, 1: { allowed: { _sd: [0, 1] } } } },
    );
    const openPayment = await signMandate({
      vct: "mandate.payment.open.1",
      cnf,
      constraints: [
        { type: "payment.amount_range", currency: "USD", max: 1000, min: 0 },
        { type: "payment.allowed_payees", allowed: [payee()] },
        { type: "payment.budget", max: budgetMajor, currency: "USD" },
        { type: "payment.agent_recurrence", frequency: "ON_DEMAND", max_occurrences: 100 },
        ...extra,
      ],
    });
    return { openCheckout, openPayment };
  }

  async function closeWith(open: { openCheckout: string; openPayment: string }, co: Awaited<ReturnType<typeof checkout>>, token: string) {
    return {
      checkout_mandate: await bind(open.openCheckout, closedCheckout(co), co),
      payment_mandate: await bind(open.openPayment, closedPayment(co, token), co),
    };
  }

  it("20 concurrent charges against one open mandate's budget never exceed it; the next is refused over budget", async () => {
    const open = await openMandates(BUDGET_CENTS / 100);
    const before = await sellerPayments();
    const prepared = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const co = await checkout();
        return { co, body: await closeWith(open, co, await mintToken(500)) };
      }),
    );
    const results = await Promise.all(prepared.map(({ co, body }) => pay(co, body)));
    const paid = results.filter((r) => r.status === 200);
    const refusedOnes = results.filter((r) => r.status !== 200);
    expect(paid.length, JSON.stringify(results.map((r) => [r.status, r.body?.error?.details?.reason ?? r.body?.error?.message]))).toBe(5);
    for (const r of refusedOnes) {
      expect(r.status, JSON.stringify(r.body)).toBe(402);
      expect(r.body.error.details.reason).toBe("budget_exceeded");
    }
    const after = await sellerPayments();
    expect(after._count - before._count).toBe(5);
    expect((after._sum.amountCaptured ?? 0) - (before._sum.amountCaptured ?? 0)).toBe(BUDGET_CENTS);
    const counter = await getDb().spendCounter.findMany({
      where: { counterKey: { startsWith: "ap2:open_payment_mandate:" }, spent: BigInt(BUDGET_CENTS) },
    });
    expect(counter.length).toBeGreaterThanOrEqual(1);

    // One more, with a fresh checkout and token: over budget, nothing charged, the token untouched.
    const co = await checkout();
    const token = await mintToken(500);
    const over = await pay(co, await closeWith(open, co, token));
    expect(over.status).toBe(402);
    expect(over.body.error.details).toMatchObject({ reason: "budget_exceeded", ap2_error: "invalid_mandate" });
    expect(await sellerPayments()).toEqual(after);
    expect((await getDb().sharedPaymentToken.findUniqueOrThrow({ where: { id: token } })).status).toBe("active");
  });

  it("enforces the open mandates' constraints: items, amount range and payees", async () => {
    const open = await openMandates(100);
    const before = await sellerPayments();
    // Tea is not among the acceptable items.
    const tea = await checkout([{ product_id: other.id, quantity: 1 }]);
    const res = await pay(tea, await closeWith(open, tea, await mintToken()));
    expect(res.status).toBe(402);
    expect(res.body.error.details.reason).toBe("line_items_not_allowed");
    // Over the amount range (three coffees are 1500 > 1000), and line_items wants exactly one.
    const three = await checkout([{ product_id: product.id, quantity: 3 }]);
    const res3 = await pay(three, await closeWith(open, three, await mintToken()));
    expect(res3.status).toBe(402);
    // An unknown constraint is unresolved.
    const odd = await openMandates(100, [{ type: "payment.moon_phase", phase: "full" }]);
    const co = await checkout();
    const resOdd = await pay(co, await closeWith(odd, co, await mintToken()));
    expect(resOdd.status).toBe(402);
    expect(resOdd.body.error.details).toMatchObject({ reason: "unknown_constraint", ap2_error: "unresolved_constraint" });
    expect(await sellerPayments()).toEqual(before);
    // Within every constraint: paid.
    const ok = await pay(co, await closeWith(open, co, await mintToken()));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });
});
