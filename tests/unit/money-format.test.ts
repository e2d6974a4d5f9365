// Every amount a person reads goes through lib/money/format: the currency's own decimals (0, 2, 3), and
// meters' sub-cent base units shown exactly.
import { describe, expect, it } from "vitest";
import { currencyDigits, formatBaseUnits, formatMoney } from "../../lib/money/format";

const plain = (text: string) => text.replace(/\u00a0/g, " ");

describe("formatMoney", () => {
  it("uses the currency's own number of decimals", () => {
    expect(formatMoney(5400, "usd")).toBe("$54.00"); // 2
    expect(formatMoney(2990, "EUR")).toBe("€29.90");
    expect(formatMoney(1500, "JPY")).toBe("¥1,500"); // 0
    expect(plain(formatMoney(1500, "KWD"))).toBe("KWD 1.500"); // 3
    expect(plain(formatMoney(1, "BHD"))).toBe("BHD 0.001");
    expect(currencyDigits("jpy")).toBe(0);
    expect(currencyDigits("kwd")).toBe(3);
  });

  it("groups thousands and keeps the largest amount exact", () => {
    expect(formatMoney(99_999_999, "usd")).toBe("$999,999.99");
    expect(formatMoney(0, "usd")).toBe("$0.00");
  });

  it("falls back to 2 decimals and the code for a code Intl does not know", () => {
    expect(formatMoney(1050, "zzzz")).toBe("10.50 ZZZZ");
  });
});

describe("formatBaseUnits (meters, sub-cent)", () => {
  it("shows a fraction of a cent exactly", () => {
    expect(formatBaseUnits(2_500_000, 1_000_000, "usd")).toBe("$0.025"); // 0.25 cent
    expect(formatBaseUnits(400_000, 1_000_000, "usd")).toBe("$0.004"); // 0.4 cent
    expect(formatBaseUnits(1, 1_000_000, "usd")).toBe("$0.00000001"); // one base unit
    expect(formatBaseUnits(123_456_789, 1_000_000, "usd")).toBe("$1.23456789");
  });

  it("keeps whole minor units at the currency's decimals", () => {
    expect(formatBaseUnits(5_000_000, 1_000_000, "usd")).toBe("$0.05");
    expect(formatBaseUnits(3_000, 1_000, "jpy")).toBe("¥3");
    expect(plain(formatBaseUnits(1_500, 1_000, "kwd"))).toBe("KWD 0.0015");
  });
});
