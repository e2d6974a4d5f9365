// The paywall's service side (issue 5 items 1-3; docs/paywall.md): verify with all
// five reason codes, the pay endpoint with the payer's own key, and the atomic redemptions store.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, transaction } from "../../lib/db";
import { openPaywallCheckout } from "../../lib/paywall/open-paywall-checkout";
import { paywallHttp, serviceBackend, serviceConsumedStore } from "agent-payments-sdk";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture, createCustomer, paidOrder, railChargesFor } from "../helpers/payments";
import { startTestServer } from "../helpers/server";
import type { ServerProcess } from "../../scripts/lib/server-process";

let m: TestMerchant;
let other: TestMerchant;
beforeAll(async () => {
  m = await createTestMerchant("Paywall seller");
  other = await createTestMerchant("Other seller");
});

const terms = (extra: Record<string, unknown> = {}) => ({
  merchantId: m.merchantId,
  amount: 250,
  currency: "USD",
  sku: "tool:search",
  ...extra,
});
const verify = (key: string, body: Record<string, unknown>) => call("POST", "/v1/paywall/verify", { key, body });
const redeem = (key: string, paymentIntentId: unknown, headers?: Record<string, string>) =>
  call("POST", "/v1/paywall/redemptions", { key, body: { paymentIntentId }, headers });

/** A paywall checkout of the merchant for these terms, captured (or not) through the API. */
async function paywallPayment(
  seller: TestMerchant,
  t: { amount: number; currency: string; sku: string },
  paymentMethod: string | null = "pm_card_visa",
) {
  const checkout = await transaction((tx) => openPaywallCheckout(tx, { merchantId: seller.merchantId, livemode: false }, t));
  if (paymentMethod) await capture(seller.testKey, checkout.id, paymentMethod);
  return checkout.paymentIntentId as string;
}

/** Captured, or settled already when the test server's own tick ran in between (test mode settles at once). */
const CAPTURED_OR_SETTLED = expect.stringMatching(/^(captured|settled)$/);

describe("POST /v1/paywall/verify", () => {
  it("valid: a captured payment of exactly these terms, with the PaymentIntent; overpayment verifies too", async () => {
    const pi = await paywallPayment(m, { amount: 250, currency: "USD", sku: "tool:search" });
    const res = await verify(m.testKey, { ...terms(), paymentIntentId: pi, currency: "usd" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      valid: true,
      paymentIntent: { id: pi, object: "payment_intent", status: CAPTURED_OR_SETTLED, amount: 250, currency: "USD", sku: "tool:search" },
    });
    const over = await paywallPayment(m, { amount: 300, currency: "USD", sku: "tool:search" });
    expect((await verify(m.testKey, { ...terms(), paymentIntentId: over })).body.valid).toBe(true);
  });

  it("not_captured: unpaid, declined or canceled, with the PaymentIntent's status in details", async () => {
    const unpaid = await paywallPayment(m, { amount: 250, currency: "USD", sku: "tool:search" }, null);
    let res = await verify(m.testKey, { ...terms(), paymentIntentId: unpaid });
    expect(res.body).toEqual({ valid: false, reasonCode: "not_captured", details: { paymentIntentStatus: "requires_payment" } });
    const declined = await paywallPayment(m, { amount: 250, currency: "USD", sku: "tool:search" }, "pm_card_chargeDeclined");
    res = await verify(m.testKey, { ...terms(), paymentIntentId: declined });
    expect(res.body).toEqual({ valid: false, reasonCode: "not_captured", details: { paymentIntentStatus: "failed" } });
    const cancel = await call(
      "POST",
      `/v1/checkouts/${(await call("GET", `/v1/payment_intents/${unpaid}`, { key: m.testKey })).body.checkoutId}/cancel`,
      { key: m.testKey, body: {} },
    );
    expect(cancel.status).toBe(200);
    res = await verify(m.testKey, { ...terms(), paymentIntentId: unpaid });
    expect(res.body).toEqual({ valid: false, reasonCode: "not_captured", details: { paymentIntentStatus: "canceled" } });
  });

  it("insufficient_amount: paid less, or refunded below the price", async () => {
    const less = await paywallPayment(m, { amount: 249, currency: "USD", sku: "tool:search" });
    expect((await verify(m.testKey, { ...terms(), paymentIntentId: less })).body).toEqual({
      valid: false,
      reasonCode: "insufficient_amount",
    });
    const refunded = await paywallPayment(m, { amount: 250, currency: "USD", sku: "tool:search" });
    expect((await call("POST", "/v1/refunds", { key: m.testKey, body: { paymentIntentId: refunded, amount: 1 } })).status).toBe(201);
    expect((await verify(m.testKey, { ...terms(), paymentIntentId: refunded })).body).toEqual({
      valid: false,
      reasonCode: "insufficient_amount",
    });
  });

  it("currency_mismatch", async () => {
    const eur = await paywallPayment(m, { amount: 250, currency: "EUR", sku: "tool:search" });
    expect((await verify(m.testKey, { ...terms(), paymentIntentId: eur })).body).toEqual({ valid: false, reasonCode: "currency_mismatch" });
  });

  it("reference_mismatch: paid for another sku, or not a paywall payment at all", async () => {
    const otherSku = await paywallPayment(m, { amount: 250, currency: "USD", sku: "tool:translate" });
    expect((await verify(m.testKey, { ...terms(), paymentIntentId: otherSku })).body).toEqual({
      valid: false,
      reasonCode: "reference_mismatch",
    });
    const { order } = await paidOrder(m.testKey, 250);
    expect((await verify(m.testKey, { ...terms(), paymentIntentId: order.paymentIntentId })).body).toEqual({
      valid: false,
      reasonCode: "reference_mismatch",
    });
  });

  it("not_found: unknown ids, another merchant's payment, the other mode's", async () => {
    const theirs = await paywallPayment(other, { amount: 250, currency: "USD", sku: "tool:search" });
    for (const paymentIntentId of [`pi_${randomBytes(12).toString("hex")}`, "not-an-id", theirs]) {
      const res = await verify(m.testKey, { ...terms(), paymentIntentId });
      expect(res.status).toBe(200);
      expect(res.body, paymentIntentId).toEqual({ valid: false, reasonCode: "not_found" });
    }
    const mine = await paywallPayment(m, { amount: 250, currency: "USD", sku: "tool:search" });
    expect((await verify(m.liveKey, { ...terms(), paymentIntentId: mine })).body).toEqual({ valid: false, reasonCode: "not_found" });
    // The owner verifies it, so not_found above was the scope, not the payment.
    expect((await verify(other.testKey, { ...terms({ merchantId: other.merchantId }), paymentIntentId: theirs })).body.valid).toBe(true);
  });

  it("a merchantId other than the key's is 403; bad input is 400 with field errors; no key is 401", async () => {
    const pi = await paywallPayment(m, { amount: 250, currency: "USD", sku: "tool:search" });
    const forbidden = await verify(m.testKey, { ...terms({ merchantId: other.merchantId }), paymentIntentId: pi });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe("FORBIDDEN");
    const bad: Record<string, unknown>[] = [
      {},
      { ...terms(), paymentIntentId: pi, amount: -1 },
      { ...terms(), paymentIntentId: pi, amount: 2.5 },
      { ...terms(), paymentIntentId: pi, currency: "dollars" },
      { ...terms(), paymentIntentId: pi, sku: "" },
      { ...terms(), paymentIntentId: "" },
      { ...terms(), paymentIntentId: pi, extra: true },
      { ...terms(), paymentIntentId: 42 },
    ];
    for (const body of bad) {
      const res = await verify(m.testKey, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details.fields.length).toBeGreaterThan(0);
    }
    expect(
      (await call("POST", "/v1/paywall/verify", { key: m.testKey, rawBody: "{nope", headers: { "Content-Type": "application/json" } }))
        .status,
    ).toBe(400);
    expect((await call("POST", "/v1/paywall/verify", { body: { ...terms(), paymentIntentId: pi } })).status).toBe(401);
  });
});

describe("POST /v1/paywall/redemptions", () => {
  it("first redemption 201 redeemed; after that 200 already_redeemed; a retry of the first request is replayed as redeemed", async () => {
    const pi = await paywallPayment(m, { amount: 250, currency: "USD", sku: "tool:search" });
    const first = await redeem(m.testKey, pi, { "Idempotency-Key": `redeem-${pi}` });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ redeemed: true });
    const again = await redeem(m.testKey, pi);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ redeemed: false, result: "already_redeemed" });
    expect((await redeem(m.testKey, pi, { "Idempotency-Key": "someone-else" })).body).toEqual({
      redeemed: false,
      result: "already_redeemed",
    });
    // The first request retried (its response lost in transit): still the winner.
    const retried = await redeem(m.testKey, pi, { "Idempotency-Key": `redeem-${pi}` });
    expect(retried.status).toBe(201);
    expect(retried.body).toEqual({ redeemed: true });
    // The same Idempotency-Key from another API key is another request.
    expect((await redeem(m.liveKey, pi, { "Idempotency-Key": `redeem-${pi}` })).status).toBe(404);
  });

  it("50 concurrent redemptions of one payment, with distinct keys: exactly one wins", async () => {
    const seller = await createTestMerchant("Race"); // its own rate-limit budget
    const pi = await paywallPayment(seller, { amount: 250, currency: "USD", sku: "tool:search" });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => redeem(seller.testKey, pi, { "Idempotency-Key": `race-${i}-${pi}` })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([...Array(49).fill(200), 201]);
    expect(results.filter((r) => r.body.redeemed === true)).toHaveLength(1);
  });

  it("unknown or another merchant's PaymentIntent is 404; bad input 400", async () => {
    const theirs = await paywallPayment(other, { amount: 250, currency: "USD", sku: "tool:search" });
    for (const id of [theirs, `pi_${randomBytes(12).toString("hex")}`, "nope"]) {
      const res = await redeem(m.testKey, id);
      expect(res.status, id).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    // Redeeming theirs failed for us, and did not burn it for them.
    expect((await redeem(other.testKey, theirs)).status).toBe(201);
    for (const body of [{}, { paymentIntentId: "" }, { paymentIntentId: 7 }, { paymentIntentId: "pi_x", more: 1 }]) {
      expect((await call("POST", "/v1/paywall/redemptions", { key: m.testKey, body })).status, JSON.stringify(body)).toBe(400);
    }
  });

  it("the SDK's service-backed consumed store against the real service: true once, then false", async () => {
    const seller = await createTestMerchant("Store");
    const store = serviceConsumedStore({ baseUrl: baseUrl(), apiKey: seller.testKey, merchantId: seller.merchantId });
    const pi = await paywallPayment(seller, { amount: 250, currency: "USD", sku: "tool:search" });
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => store.consume(pi)));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await store.consume(pi)).toBe(false);
  });
});

describe("POST /v1/paywall/redemptions with terms: verify and redeem in one call", () => {
  const redeemWith = (key: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    call("POST", "/v1/paywall/redemptions", { key, body, headers });
  const redemptionsOf = (paymentIntentId: string) => getDb().paywallRedemption.count({ where: { paymentIntentId } });
  const search = { amount: 250, currency: "USD", sku: "tool:search" };

  it("valid: 201 redeemed with verify's PaymentIntent; then already_redeemed; the winner's retry is redeemed again", async () => {
    const pi = await paywallPayment(m, search);
    const viaVerify = await verify(m.testKey, { ...terms(), paymentIntentId: pi });
    const first = await redeemWith(m.testKey, { ...terms(), paymentIntentId: pi, currency: "usd" }, { "Idempotency-Key": `one-${pi}` });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ redeemed: true, paymentIntent: viaVerify.body.paymentIntent });
    // merchantId is optional: the key's merchant is the one redeeming.
    const { merchantId: _m, ...withoutMerchant } = terms();
    const again = await redeemWith(m.testKey, { ...withoutMerchant, paymentIntentId: pi }, { "Idempotency-Key": `other-${pi}` });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ redeemed: false, result: "already_redeemed" });
    expect((await redeem(m.testKey, pi)).body).toEqual({ redeemed: false, result: "already_redeemed" });
    const retried = await redeemWith(m.testKey, { ...terms(), paymentIntentId: pi }, { "Idempotency-Key": `one-${pi}` });
    expect(retried.status).toBe(201);
    expect(retried.body.redeemed).toBe(true);
    expect(await redemptionsOf(pi)).toBe(1);
    // A plain redemption first, then the combined call: already redeemed as well.
    const plain = await paywallPayment(m, search);
    expect((await redeem(m.testKey, plain)).status).toBe(201);
    expect((await redeemWith(m.testKey, { ...terms(), paymentIntentId: plain })).body).toEqual({
      redeemed: false,
      result: "already_redeemed",
    });
  });

  it("each reason code, as verify answers it, in verify's order; nothing is inserted and the proof is not burnt", async () => {
    const unpaid = await paywallPayment(m, search, null);
    const declined = await paywallPayment(m, search, "pm_card_chargeDeclined");
    const less = await paywallPayment(m, { ...search, amount: 249 });
    const eur = await paywallPayment(m, { ...search, currency: "EUR" });
    const otherSku = await paywallPayment(m, { ...search, sku: "tool:translate" });
    const eurOtherSku = await paywallPayment(m, { ...search, currency: "EUR", sku: "tool:translate", amount: 1 }); // sku is checked before currency and amount
    const { order } = await paidOrder(m.testKey, 250); // not a paywall payment
    const theirs = await paywallPayment(other, search);
    const cases: [string, Record<string, unknown>][] = [
      [unpaid, { reasonCode: "not_captured", details: { paymentIntentStatus: "requires_payment" } }],
      [declined, { reasonCode: "not_captured", details: { paymentIntentStatus: "failed" } }],
      [less, { reasonCode: "insufficient_amount" }],
      [eur, { reasonCode: "currency_mismatch" }],
      [otherSku, { reasonCode: "reference_mismatch" }],
      [eurOtherSku, { reasonCode: "reference_mismatch" }],
      [order.paymentIntentId, { reasonCode: "reference_mismatch" }],
      [theirs, { reasonCode: "not_found" }],
      [`pi_${randomBytes(12).toString("hex")}`, { reasonCode: "not_found" }],
      ["not-an-id", { reasonCode: "not_found" }],
    ];
    for (const [paymentIntentId, answer] of cases) {
      const res = await redeemWith(m.testKey, { ...terms(), paymentIntentId });
      expect(res.status, paymentIntentId).toBe(200);
      expect(res.body, paymentIntentId).toEqual({ redeemed: false, valid: false, ...answer });
      const { valid: _v, ...verifyAnswer } = (await verify(m.testKey, { ...terms(), paymentIntentId })).body;
      expect({ valid: false, ...verifyAnswer }, `verify agrees on ${paymentIntentId}`).toEqual({ valid: false, ...answer });
      expect(await redemptionsOf(paymentIntentId), paymentIntentId).toBe(0);
    }
    // The other mode's key does not find it either.
    const mine = await paywallPayment(m, search);
    expect((await redeemWith(m.liveKey, { ...terms(), paymentIntentId: mine })).body).toEqual({
      redeemed: false,
      valid: false,
      reasonCode: "not_found",
    });
    // Not burnt: the unpaid one, paid now, redeems; the other sku's redeems under its own terms.
    await capture(m.testKey, (await call("GET", `/v1/payment_intents/${unpaid}`, { key: m.testKey })).body.checkoutId);
    expect((await redeemWith(m.testKey, { ...terms(), paymentIntentId: unpaid })).status).toBe(201);
    expect((await redeemWith(m.testKey, { ...terms({ sku: "tool:translate" }), paymentIntentId: otherSku })).status).toBe(201);
  });

  it("an unpaid PaymentIntent whose checkout is overdue is named expired (read as seen now)", async () => {
    const pi = await paywallPayment(m, search, null);
    await getDb()
      .$executeRaw`UPDATE checkouts SET expires_at = now() - interval '1 second' WHERE id = (SELECT checkout_id FROM payment_intents WHERE id = ${pi})`;
    const res = await redeemWith(m.testKey, { ...terms(), paymentIntentId: pi });
    expect(res.body).toEqual({ redeemed: false, valid: false, reasonCode: "not_captured", details: { paymentIntentStatus: "expired" } });
    expect(await redemptionsOf(pi)).toBe(0);
  });

  it("a redeemed payment refunded below the price: the terms are checked first (insufficient_amount), as verify-then-consume answers", async () => {
    const pi = await paywallPayment(m, search);
    expect((await redeemWith(m.testKey, { ...terms(), paymentIntentId: pi })).status).toBe(201);
    expect((await call("POST", "/v1/refunds", { key: m.testKey, body: { paymentIntentId: pi, amount: 1 } })).status).toBe(201);
    expect((await redeemWith(m.testKey, { ...terms(), paymentIntentId: pi })).body).toEqual({
      redeemed: false,
      valid: false,
      reasonCode: "insufficient_amount",
    });
  });

  it("50 concurrent combined calls with distinct keys: exactly one redeems, one row", async () => {
    const seller = await createTestMerchant("Combined race"); // its own rate-limit budget
    const pi = await paywallPayment(seller, search);
    const body = { ...terms({ merchantId: seller.merchantId }), paymentIntentId: pi };
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => redeemWith(seller.testKey, body, { "Idempotency-Key": `crace-${i}-${pi}` })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([...Array(49).fill(200), 201]);
    expect(results.filter((r) => r.body.redeemed === true)).toHaveLength(1);
    expect(results.filter((r) => r.body.result === "already_redeemed")).toHaveLength(49);
    expect(await redemptionsOf(pi)).toBe(1);
  });

  it("another merchant's PaymentIntent never redeems: not_found with our merchantId, 403 naming theirs; the owner still can", async () => {
    const theirs = await paywallPayment(other, search);
    expect((await redeemWith(m.testKey, { ...terms(), paymentIntentId: theirs })).body).toEqual({
      redeemed: false,
      valid: false,
      reasonCode: "not_found",
    });
    const naming = await redeemWith(m.testKey, { ...terms({ merchantId: other.merchantId }), paymentIntentId: theirs });
    expect(naming.status).toBe(403);
    expect(naming.body.error.code).toBe("FORBIDDEN");
    expect(await redemptionsOf(theirs)).toBe(0);
    const owner = await redeemWith(other.testKey, { ...terms({ merchantId: other.merchantId }), paymentIntentId: theirs });
    expect(owner.status).toBe(201);
    expect(await getDb().paywallRedemption.findMany({ where: { paymentIntentId: theirs }, select: { merchantId: true } })).toEqual([
      { merchantId: other.merchantId },
    ]);
  });

  it("bad input is 400 with field errors: terms in part, merchantId without terms, malformed terms", async () => {
    const pi = await paywallPayment(m, search);
    const bad: [Record<string, unknown>, string][] = [
      [{ paymentIntentId: pi, amount: 250 }, "currency"],
      [{ paymentIntentId: pi, amount: 250, currency: "USD" }, "sku"],
      [{ paymentIntentId: pi, sku: "tool:search" }, "amount"],
      [{ paymentIntentId: pi, merchantId: m.merchantId }, "merchantId"],
      [{ ...terms(), paymentIntentId: pi, amount: 0 }, "amount"],
      [{ ...terms(), paymentIntentId: pi, currency: "dollars" }, "currency"],
      [{ ...terms(), paymentIntentId: pi, merchantId: "acme" }, "merchantId"],
      [{ ...terms(), paymentIntentId: pi, tip: 1 }, ""],
    ];
    for (const [body, field] of bad) {
      const res = await redeemWith(m.testKey, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      if (field)
        expect(
          res.body.error.details.fields.map((f: { path: string }) => f.path),
          JSON.stringify(body),
        ).toContain(field);
    }
    expect(await redemptionsOf(pi)).toBe(0);
  });
});

describe("POST /v1/paywall/pay (the payer's own key)", () => {
  const pay = (key: string, body: Record<string, unknown>, headers?: Record<string, string>, base?: string) =>
    call("POST", "/v1/paywall/pay", { key, body, headers, base });
  const servers: ServerProcess[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.stop())));

  it("a test card: 201 captured; the payee's PaymentIntent records the sku and verifies; the payer cannot see it", async () => {
    const payer = await createTestMerchant("Payer agent");
    const res = await pay(payer.testKey, { ...terms(), currency: "usd", paymentMethod: "pm_card_visa" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: "paywall_payment",
      status: "captured",
      merchantId: m.merchantId,
      amount: 250,
      currency: "USD",
      sku: "tool:search",
      livemode: false,
    });
    const pi = res.body.paymentIntentId;
    expect(pi).toMatch(/^pi_/);
    expect((await verify(m.testKey, { ...terms(), paymentIntentId: pi })).body).toMatchObject({
      valid: true,
      paymentIntent: { id: pi, amountCaptured: 250, sku: "tool:search" },
    });
    expect((await call("GET", `/v1/payment_intents/${pi}`, { key: payer.testKey })).status).toBe(404);
    const row = await getDb().paymentIntent.findUniqueOrThrow({ where: { id: pi } });
    expect(row).toMatchObject({ merchantId: m.merchantId, payerMerchantId: payer.merchantId, sku: "tool:search", amount: 250 });
    expect(await railChargesFor(pi)).toBe(1);
  });

  it("the payer's own customer wallet pays; another merchant's customer is 404; an empty wallet is declined", async () => {
    const payer = await createTestMerchant("Wallet payer");
    const wallet = await createCustomer(payer.testKey, { amount: 1000, currency: "usd" });
    const walletKey = { "Idempotency-Key": `wallet-${randomBytes(6).toString("hex")}` };
    const res = await pay(payer.testKey, { ...terms(), paymentMethod: wallet.id }, walletKey);
    expect(res.status).toBe(201);
    // Its retry (same key, same wallet) is the same payment; another method under that key is refused.
    const again = await pay(payer.testKey, { ...terms(), paymentMethod: wallet.id }, walletKey);
    expect(again.body.paymentIntentId).toBe(res.body.paymentIntentId);
    expect((await pay(payer.testKey, { ...terms(), paymentMethod: "pm_card_visa" }, walletKey)).status).toBe(400);
    const balance = await getDb().testWallet.findUniqueOrThrow({
      where: { customerId_currency: { customerId: wallet.id, currency: "USD" } },
    });
    expect(balance.balance).toBe(750);
    expect((await verify(m.testKey, { ...terms(), paymentIntentId: res.body.paymentIntentId })).body.valid).toBe(true);
    // The payee never sees the payer's customer id: only that a customer wallet paid.
    const asPayee = await call("GET", `/v1/payment_intents/${res.body.paymentIntentId}`, { key: m.testKey });
    expect(asPayee.body).toMatchObject({ status: CAPTURED_OR_SETTLED, customerId: null, paymentMethod: "customer_wallet" });
    expect(JSON.stringify(asPayee.body)).not.toContain(wallet.id);
    const events = await call("GET", "/v1/events?limit=20", { key: m.testKey });
    expect(JSON.stringify(events.body)).not.toContain(wallet.id);

    const payeesCustomer = await createCustomer(m.testKey, { amount: 1000, currency: "usd" });
    const notTheirs = await pay(payer.testKey, { ...terms(), paymentMethod: payeesCustomer.id });
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body.error.code).toBe("NOT_FOUND");

    const empty = await createCustomer(payer.testKey);
    const declined = await pay(payer.testKey, { ...terms(), paymentMethod: empty.id });
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({ code: "PAYMENT_DECLINED", details: { reason: "insufficient_funds" } });
  });

  it("a decline is 402 with the reason; its PaymentIntent is failed (not_captured); a retry with the same key replays the decline", async () => {
    const payer = await createTestMerchant("Declined payer");
    const key = `decline-${randomBytes(6).toString("hex")}`;
    const res = await pay(payer.testKey, { ...terms(), paymentMethod: "pm_card_chargeDeclined" }, { "Idempotency-Key": key });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: "PAYMENT_DECLINED", details: { reason: "generic_decline" } });
    const again = await pay(payer.testKey, { ...terms(), paymentMethod: "pm_card_chargeDeclined" }, { "Idempotency-Key": key });
    expect(again.status).toBe(402);
    const rows = await getDb().paymentIntent.findMany({ where: { payerMerchantId: payer.merchantId } });
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe("failed");
    expect((await verify(m.testKey, { ...terms(), paymentIntentId: rows[0].id })).body).toEqual({
      valid: false,
      reasonCode: "not_captured",
      details: { paymentIntentStatus: "failed" },
    });
  });

  it("one Idempotency-Key, one payment: sequential and 10 concurrent copies get the same PaymentIntent and one charge; another body is 400", async () => {
    const payer = await createTestMerchant("Retrying payer");
    const key = `pay-${randomBytes(6).toString("hex")}`;
    const body = { ...terms(), paymentMethod: "pm_card_visa" };
    const results = await Promise.all(Array.from({ length: 10 }, () => pay(payer.testKey, body, { "Idempotency-Key": key })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(201));
    const ids = new Set(results.map((r) => r.body.paymentIntentId));
    expect(ids.size).toBe(1);
    const [pi] = ids;
    const later = await pay(payer.testKey, body, { "Idempotency-Key": key });
    expect(later.body.paymentIntentId).toBe(pi);
    expect(await railChargesFor(pi)).toBe(1);
    const different = await pay(payer.testKey, { ...body, amount: 999 }, { "Idempotency-Key": key });
    expect(different.status).toBe(400);
    expect(different.body.error.code).toBe("VALIDATION_ERROR");
    expect(await getDb().paymentIntent.count({ where: { payerMerchantId: payer.merchantId } })).toBe(1);
    // Without a key, each request is a payment of its own.
    const a = await pay(payer.testKey, body);
    const b = await pay(payer.testKey, body);
    expect(a.body.paymentIntentId).not.toBe(b.body.paymentIntentId);
  });

  it("a pay that dies after the rail charged is completed by its retry (same key, another process), charged once", async () => {
    const payer = await createTestMerchant("Crashing payer");
    const [first, second] = await Promise.all([startTestServer({ FAULT_INJECTION: "1" }), startTestServer({ FAULT_INJECTION: "1" })]);
    servers.push(first, second);
    const key = `crash-${randomBytes(6).toString("hex")}`;
    const body = { ...terms(), paymentMethod: "pm_card_visa" };
    const died = await pay(payer.testKey, body, { "Idempotency-Key": key, "x-test-fault": "after-rail-charge:exit" }, first.url).catch(
      (err: Error) => err,
    );
    expect(died).toBeInstanceOf(Error); // the process exited without answering
    const [row] = await getDb().paymentIntent.findMany({ where: { payerMerchantId: payer.merchantId } });
    expect(row.status).toBe("requires_payment");
    expect(await railChargesFor(row.id)).toBe(1);

    const retry = await pay(payer.testKey, body, { "Idempotency-Key": key }, second.url);
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ paymentIntentId: row.id, status: CAPTURED_OR_SETTLED });
    expect(await railChargesFor(row.id)).toBe(1);
    expect((await verify(m.testKey, { ...terms(), paymentIntentId: row.id })).body.valid).toBe(true);
  });

  it("a rail failure is 502: with an Idempotency-Key the PaymentIntent waits for the retry; without one it is canceled", async () => {
    const own = await startTestServer(); // the failures count against this process's circuit breaker only
    servers.push(own);
    const payer = await createTestMerchant("Unlucky payer");
    const body = { ...terms(), paymentMethod: "pm_rail_unavailable" };
    const key = `rail-${randomBytes(6).toString("hex")}`;
    const keyed = await pay(payer.testKey, body, { "Idempotency-Key": key }, own.url);
    expect(keyed.status).toBe(502);
    expect(keyed.body.error.code).toBe("UPSTREAM_ERROR");
    const unkeyed = await pay(payer.testKey, body, undefined, own.url);
    expect(unkeyed.status).toBe(502);
    const rows = await getDb().paymentIntent.findMany({ where: { payerMerchantId: payer.merchantId }, orderBy: { createdAt: "asc" } });
    expect(rows.map((r) => [r.payerRequestKey !== null, r.status])).toEqual([
      [true, "requires_payment"],
      [false, "canceled"],
    ]);
    // The keyed request, retried once the rail answers, pays that same PaymentIntent.
    const retry = await pay(payer.testKey, { ...body, paymentMethod: "pm_card_visa" }, { "Idempotency-Key": key }, own.url);
    expect(retry.status).toBe(201);
    expect(retry.body.paymentIntentId).toBe(rows[0].id);
  });

  it("bad input: 400 with field errors, unknown payment method 400, unknown merchant 404, sanctioned country 403, no key 401", async () => {
    const payer = await createTestMerchant("Careless payer");
    const ok = { ...terms(), paymentMethod: "pm_card_visa" };
    for (const body of [
      {},
      { ...ok, amount: 0 },
      { ...ok, amount: 1.5 },
      { ...ok, currency: "usdx" },
      { ...ok, sku: "" },
      { ...ok, merchantId: "acme" },
      { ...ok, paymentMethod: "" },
      { ...ok, tip: 1 },
    ]) {
      const res = await pay(payer.testKey, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
    }
    const unknownMethod = await pay(payer.testKey, { ...ok, paymentMethod: "pm_card_nope" });
    expect(unknownMethod.status).toBe(400);
    expect(unknownMethod.body.error.details.fields[0].path).toBe("paymentMethod");
    const unknownMerchant = await pay(payer.testKey, { ...ok, merchantId: "mer_0000000000000000000000" });
    expect(unknownMerchant.status).toBe(404);
    const sanctioned = await pay(payer.testKey, { ...ok, billingCountry: "kp" });
    expect(sanctioned.status).toBe(403);
    expect(sanctioned.body.error.code).toBe("SANCTIONS_BLOCKED");
    expect((await pay("", ok)).status).toBe(401);
    // Nothing was opened for any of them.
    expect(await getDb().paymentIntent.count({ where: { payerMerchantId: payer.merchantId } })).toBe(0);
  });
});

describe("paywallHttp() over the real service (docs/paywall.md, plain HTTP)", () => {
  it("402 gate -> pay at payEndpoint with the payer's key -> retry with x-service-payment -> 200 once, then 409 already_redeemed", async () => {
    const seller = await createTestMerchant("HTTP API seller");
    const payer = await createTestMerchant("HTTP API agent");
    const service = { baseUrl: baseUrl(), apiKey: seller.testKey };
    let runs = 0;
    const handler = paywallHttp({
      backend: serviceBackend(service),
      consumed: serviceConsumedStore({ ...service, merchantId: seller.merchantId }),
      merchantId: seller.merchantId,
      price: 40,
      currency: "eur",
      sku: "api:forecast",
    })(async () => {
      runs++;
      return Response.json({ forecast: "sunny" });
    });

    const gated = await handler(new Request("http://api.local/forecast"));
    expect(gated.status).toBe(402);
    const gate = await gated.json();
    expect(gate).toMatchObject({
      kind: "payment_required",
      merchant: seller.merchantId,
      amount: 40,
      currency: "EUR",
      sku: "api:forecast",
      payEndpoint: `${baseUrl()}/v1/paywall/pay`,
    });
    const paid = await fetch(gate.payEndpoint, {
      method: "POST",
      headers: { Authorization: `Bearer ${payer.testKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        merchantId: gate.merchant,
        amount: gate.amount,
        currency: gate.currency,
        sku: gate.sku,
        paymentMethod: "pm_card_mastercard",
      }),
    });
    expect(paid.status).toBe(201);
    const { paymentIntentId } = await paid.json();

    const withProof = () => handler(new Request("http://api.local/forecast", { headers: { "x-service-payment": paymentIntentId } }));
    const ok = await withProof();
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ forecast: "sunny", payment: { status: "paid", paymentIntentId } });
    const again = await withProof();
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ kind: "already_redeemed", paymentIntentId });
    expect(runs).toBe(1);
  });
});
