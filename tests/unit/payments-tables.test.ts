import { describe, expect, it } from "vitest";
import { CHECKOUT_TRANSITIONS } from "../../lib/checkouts/transitions";
import { ORDER_TRANSITIONS } from "../../lib/orders/transitions";
import { PAYMENT_INTENT_TRANSITIONS } from "../../lib/payments/transitions";
import { paymentMethodForTestCard, testCardOutcome, TEST_PAYMENT_METHODS } from "../../lib/rails/test-cards";
import { canTransition, fromStatesOf } from "../../lib/state-machine";

describe("transition tables (docs/payments.md, Objects and statuses)", () => {
  it("expired, canceled, failed and refunded PaymentIntents are terminal; only requires_payment can be charged", () => {
    for (const terminal of ["refunded", "failed", "expired", "canceled"] as const) expect(PAYMENT_INTENT_TRANSITIONS[terminal]).toEqual([]);
    // A processing PaymentIntent was charged already; the rail's later answer captures it (never a second charge).
    expect(fromStatesOf(PAYMENT_INTENT_TRANSITIONS, "captured").sort()).toEqual(["processing", "requires_payment"]);
    expect(fromStatesOf(PAYMENT_INTENT_TRANSITIONS, "refunded").sort()).toEqual(["captured", "settled"]);
    expect(canTransition(PAYMENT_INTENT_TRANSITIONS, "expired", "captured")).toBe(false);
    expect(canTransition(PAYMENT_INTENT_TRANSITIONS, "settled", "captured")).toBe(false);
  });

  it("orders end canceled only from pending, and refunds only after payment", () => {
    expect(fromStatesOf(ORDER_TRANSITIONS, "canceled")).toEqual(["pending"]);
    expect(fromStatesOf(ORDER_TRANSITIONS, "refunded").sort()).toEqual(["paid", "partially_refunded"]);
    expect(ORDER_TRANSITIONS.refunded).toEqual([]);
    expect(fromStatesOf(CHECKOUT_TRANSITIONS, "complete")).toEqual(["open"]);
  });
});

describe("test instruments", () => {
  it("map card numbers to the payment methods of the same outcome", () => {
    expect(paymentMethodForTestCard("4242 4242 4242 4242")).toBe("pm_card_visa");
    expect(paymentMethodForTestCard("5555-5555-5555-4444")).toBe("pm_card_mastercard");
    expect(testCardOutcome("4000000000000002")).toEqual({ status: "declined", reason: "generic_decline" });
    expect(testCardOutcome("4000000000009995")).toEqual({ status: "declined", reason: "insufficient_funds" });
    expect(testCardOutcome("4000000000000069")).toEqual({ status: "declined", reason: "expired_card" });
    expect(testCardOutcome("1234123412341234")).toBeNull();
    expect(TEST_PAYMENT_METHODS.pm_rail_unavailable).toEqual({ status: "unavailable" });
  });
});
