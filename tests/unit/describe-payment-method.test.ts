// Payment methods as a person reads them on the dashboard, never the internal ids.
import { describe, expect, it } from "vitest";
import { describePaymentMethod } from "../../lib/payments/describe-payment-method";

describe("describePaymentMethod", () => {
  it("names test cards by brand and last four digits", () => {
    expect(describePaymentMethod("pm_card_visa")).toEqual({ label: "Visa •••• 4242", kind: "card" });
    expect(describePaymentMethod("pm_card_mastercard").label).toBe("Mastercard •••• 4444");
    expect(describePaymentMethod("pm_card_chargeDeclinedInsufficientFunds").label).toBe("Visa •••• 9995");
  });

  it("names wallets and x402 payers", () => {
    expect(describePaymentMethod("customer_wallet")).toEqual({ label: "Customer wallet", kind: "wallet" });
    expect(describePaymentMethod("cus_0123456789abcdef").label).toBe("Customer wallet · cus_0123456789abcdef");
    expect(describePaymentMethod("x402:eip155:84532:0x857b06519E91e3A54538791bDbb0E22373e36b66")).toEqual({
      label: "x402 · 0x857b…6b66",
      kind: "x402",
    });
  });

  it("shows anything else as recorded (never an inherited property)", () => {
    expect(describePaymentMethod("pm_something_new").label).toBe("pm_something_new");
    expect(describePaymentMethod("constructor").label).toBe("constructor");
  });
});
