// The pay page's pure rules: Luhn, expiry, formatting, money in the currency's own decimals, decline
// words, and the form token.
import { describe, expect, it } from "vitest";
import { formatCardNumber, formatExpiry, luhnValid, parseExpiry, validateCard } from "../../lib/pay/card";
import { declineInPlainWords } from "../../lib/pay/decline-reasons";
import { issueFormToken, verifyFormToken } from "../../lib/pay/form-token";
import { TEST_CARD_NUMBERS } from "../../lib/rails/test-cards";

const NOW = new Date("2026-05-15T12:00:00Z");
const good = { cardNumber: "4242 4242 4242 4242", expiry: "12 / 30", cvc: "123", name: "Jane Payer", billingCountry: "us" };

describe("card rules", () => {
  it("every test card number of the contract passes Luhn; a changed digit does not", () => {
    for (const number of Object.keys(TEST_CARD_NUMBERS)) expect(luhnValid(number)).toBe(true);
    expect(luhnValid("4242424242424241")).toBe(false);
    expect(luhnValid("42424242a4242424")).toBe(false);
  });

  it("formats numbers in groups and expiry as MM / YY", () => {
    expect(formatCardNumber("4242424242424242")).toBe("4242 4242 4242 4242");
    expect(formatCardNumber("378282246310005")).toBe("3782 822463 10005");
    expect(formatExpiry("1230")).toBe("12 / 30");
    expect(formatExpiry("4")).toBe("04 / ");
    expect(parseExpiry("12/30")).toEqual({ month: 12, year: 2030 });
    expect(parseExpiry("13/30")).toBeNull();
  });

  it("accepts a good card and normalises it", () => {
    const result = validateCard(good, NOW);
    expect(result).toEqual({
      ok: true,
      card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123", name: "Jane Payer", billingCountry: "US" },
    });
  });

  it("refuses a bad Luhn number, a past expiry, a short CVC and a missing name", () => {
    const result = validateCard({ ...good, cardNumber: "4242424242424241", expiry: "04/26", cvc: "12", name: " " }, NOW);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.errors).sort()).toEqual(["cardNumber", "cvc", "expiry", "name"]);
    expect(validateCard({ ...good, expiry: "05/26" }, NOW).ok).toBe(true); // good through the end of its month
  });
});

describe("money and words", () => {
  it("explains declines in plain words", () => {
    expect(declineInPlainWords("insufficient_funds").title).toMatch(/insufficient funds/);
    expect(declineInPlainWords("expired_card").title).toMatch(/expired/);
    expect(declineInPlainWords("something_new").title).toBe("Your card was declined.");
  });
});

describe("form token", () => {
  it("binds to its checkout and expires", () => {
    const token = issueFormToken("cs_a", 1_000_000);
    expect(verifyFormToken("cs_a", token, 1_000_500)).toBe(true);
    expect(verifyFormToken("cs_b", token, 1_000_500)).toBe(false);
    expect(verifyFormToken("cs_a", token, 1_000_000 + 26 * 3600 * 1000)).toBe(false);
    expect(verifyFormToken("cs_a", `${token.slice(0, -1)}A`, 1_000_500)).toBe(token.endsWith("A"));
    expect(verifyFormToken("cs_a", null)).toBe(false);
  });
});
