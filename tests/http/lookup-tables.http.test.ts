// Lookup tables keyed by request data answer only for their own keys: names every plain object inherits
// from Object.prototype (`constructor`, `toString`, `__proto__`, ...) are unknown payment methods, never
// a charge that always succeeds (issue 14, item 10).
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/http";
import { createTestMerchant, type TestMerchant } from "../helpers/merchants";
import { capture, createCustomer, openCheckout } from "../helpers/payments";

const INHERITED = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"];

let m: TestMerchant;
let payer: TestMerchant;
beforeAll(async () => {
  [m, payer] = await Promise.all([createTestMerchant("Lookup tables"), createTestMerchant("Lookup payer")]);
});

describe("payment methods named like Object.prototype members", () => {
  it.each(INHERITED)("capture with %s is 400 unknown payment method, and nothing is paid", async (method) => {
    const checkout = await openCheckout(m.testKey, { amount: 700 });
    const res = await capture(m.testKey, checkout.id, method);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.fields[0].path).toBe("paymentMethod");
    const pi = await call("GET", `/v1/payment_intents/${checkout.paymentIntentId}`, { key: m.testKey });
    expect(pi.body.status).toBe("requires_payment");
  });

  it("a meter and a paywall payment refuse them too", async () => {
    const customer = await createCustomer(m.testKey);
    for (const method of INHERITED) {
      const meter = await call("POST", "/v1/meters", {
        key: m.testKey,
        body: { customerId: customer.id, currency: "usd", thresholdMinor: 1, prepaid: false, paymentMethod: method },
      });
      expect(meter.status, method).toBe(400);
      expect(meter.body.error.details.fields[0].path).toBe("paymentMethod");
      const pay = await call("POST", "/v1/paywall/pay", {
        key: payer.testKey,
        body: { merchantId: m.merchantId, amount: 25, currency: "usd", sku: "tool.x", paymentMethod: method },
      });
      expect(pay.status, method).toBe(400);
      expect(pay.body.error.code).toBe("VALIDATION_ERROR");
    }
  });
});
