// The paywall's service side (issue 5 items 1-3; CONTRACT.md "Paywall (service side)"): verify with all
// five reason codes, the pay endpoint with the payer's own key, and the atomic redemptions store.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { transaction } from "../../lib/db";
import { openPaywallCheckout } from "../../lib/paywall/open-paywall-checkout";
import { serviceConsumedStore } from "../../lib/sdk";
import { baseUrl, call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture, paidOrder } from "../helpers/payments";

let m: TestMerchant;
let other: TestMerchant;
beforeAll(async () => {
  m = await createTestMerchant("Paywall seller");
  other = await createTestMerchant("Other seller");
});

const terms = (extra: Record<string, unknown> = {}) => ({ merchantId: m.merchantId, amount: 250, currency: "USD", sku: "tool:search", ...extra });
const verify = (key: string, body: Record<string, unknown>) => call("POST", "/v1/paywall/verify", { key, body });
const redeem = (key: string, paymentIntentId: unknown, headers?: Record<string, string>) =>
  call("POST", "/v1/paywall/redemptions", { key, body: { paymentIntentId }, headers });

/** A paywall checkout of the merchant for these terms, captured (or not) through the API. */
async function paywallPayment(seller: TestMerchant, t: { amount: number; currency: string; sku: string }, paymentMethod: string | null = "pm_card_visa") {
  const checkout = await transaction((tx) => openPaywallCheckout(tx, { merchantId: seller.merchantId, livemode: false }, t));
  if (paymentMethod) await capture(seller.testKey, checkout.id, paymentMethod);
  return checkout.paymentIntentId as string;
}

describe("POST /v1/paywall/verify", () => {
  it("valid: a captured payment of exactly these terms, with the PaymentIntent; overpayment verifies too", async () => {
    const pi = await paywallPayment(m, { amount: 250, currency: "USD", sku: "tool:search" });
    const res = await verify(m.testKey, { ...terms(), paymentIntentId: pi, currency: "usd" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: true, paymentIntent: { id: pi, object: "payment_intent", status: "captured", amount: 250, currency: "USD", sku: "tool:search" } });
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
    const cancel = await call("POST", `/v1/checkouts/${(await call("GET", `/v1/payment_intents/${unpaid}`, { key: m.testKey })).body.checkoutId}/cancel`, { key: m.testKey, body: {} });
    expect(cancel.status).toBe(200);
    res = await verify(m.testKey, { ...terms(), paymentIntentId: unpaid });
    expect(res.body).toEqual({ valid: false, reasonCode: "not_captured", details: { paymentIntentStatus: "canceled" } });
  });

  it("insufficient_amount: paid less, or refunded below the price", async () => {
    const less = await paywallPayment(m, { amount: 249, currency: "USD", sku: "tool:search" });
    expect((await verify(m.testKey, { ...terms(), paymentIntentId: less })).body).toEqual({ valid: false, reasonCode: "insufficient_amount" });
    const refunded = await paywallPayment(m, { amount: 250, currency: "USD", sku: "tool:search" });
    expect((await call("POST", "/v1/refunds", { key: m.testKey, body: { paymentIntentId: refunded, amount: 1 } })).status).toBe(201);
    expect((await verify(m.testKey, { ...terms(), paymentIntentId: refunded })).body).toEqual({ valid: false, reasonCode: "insufficient_amount" });
  });

  it("currency_mismatch", async () => {
    const eur = await paywallPayment(m, { amount: 250, currency: "EUR", sku: "tool:search" });
    expect((await verify(m.testKey, { ...terms(), paymentIntentId: eur })).body).toEqual({ valid: false, reasonCode: "currency_mismatch" });
  });

  it("reference_mismatch: paid for another sku, or not a paywall payment at all", async () => {
    const otherSku = await paywallPayment(m, { amount: 250, currency: "USD", sku: "tool:translate" });
    expect((await verify(m.testKey, { ...terms(), paymentIntentId: otherSku })).body).toEqual({ valid: false, reasonCode: "reference_mismatch" });
    const { order } = await paidOrder(m.testKey, 250);
    expect((await verify(m.testKey, { ...terms(), paymentIntentId: order.paymentIntentId })).body).toEqual({ valid: false, reasonCode: "reference_mismatch" });
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
    expect((await call("POST", "/v1/paywall/verify", { key: m.testKey, rawBody: "{nope", headers: { "Content-Type": "application/json" } })).status).toBe(400);
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
    expect((await redeem(m.testKey, pi, { "Idempotency-Key": "someone-else" })).body).toEqual({ redeemed: false, result: "already_redeemed" });
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
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => redeem(seller.testKey, pi, { "Idempotency-Key": `race-${i}-${pi}` })));
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
