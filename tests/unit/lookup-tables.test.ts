// Every lookup table keyed by request data (query strings, form fields, bodies) answers only for its
// own keys: an inherited name such as `constructor` or `__proto__` is an unknown key (issue 14, item 10).
import { describe, expect, it } from "vitest";
import { authErrorMessage } from "../../lib/auth/messages";
import { eventObject } from "../../lib/dashboard/events";
import { statusLabel } from "../../lib/dashboard/format";
import { declineInPlainWords } from "../../lib/pay/decline-reasons";
import { payErrorMessage } from "../../lib/pay/messages";
import { paymentMethodForTestCard, testCardOutcome } from "../../lib/rails/test-cards";
import { testRail } from "../../lib/rails/test-rail";

const INHERITED = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "isPrototypeOf", "__defineGetter__"];

describe("lookup tables keyed by user input", () => {
  it.each(INHERITED)("%s is not a test payment method, card, auth error, decline reason, status or object page", (key) => {
    expect(testRail.supportsPaymentMethod(key)).toBe(false);
    expect(paymentMethodForTestCard(key)).toBeNull();
    expect(testCardOutcome(key)).toBeNull();
    expect(authErrorMessage(key)).toBe("Sign-in failed. Try again.");
    expect(declineInPlainWords(key)).toEqual({ title: "Your card was declined.", detail: "Contact your bank if this keeps happening." });
    expect(payErrorMessage("declined", key)).toBe("Your card was declined. Nothing was charged; you can try another card.");
    expect(typeof statusLabel(key)).toBe("string");
    expect(eventObject({ object: { id: `${key}_abc` } })).toEqual({ id: `${key}_abc`, href: null, sample: false });
  });

  it("the real keys still answer", () => {
    expect(testRail.supportsPaymentMethod("pm_card_visa")).toBe(true);
    expect(paymentMethodForTestCard("4242 4242 4242 4242")).toBe("pm_card_visa");
    expect(authErrorMessage("RATE_LIMITED")).toMatch(/Too many attempts/);
    expect(declineInPlainWords("expired_card").title).toBe("Your card has expired.");
    expect(statusLabel("requires_payment")).toBe("Requires payment");
  });
});
