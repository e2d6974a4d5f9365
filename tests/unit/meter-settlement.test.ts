// The settlement arithmetic of a meter (lib/meters/settle-meters.ts) and the decimal unit price.
import { describe, expect, it } from "vitest";
import { decimalMinor } from "../../lib/meters/serialize";
import { settlementOf } from "../../lib/meters/settle-meters";

const M = 1_000_000n;
const meter = (accrued: bigint, threshold = 1, status = "open") => ({
  status,
  threshold_minor: threshold,
  base_units_per_minor: M,
  accrued_base: accrued,
});

describe("settlementOf", () => {
  it("bills the whole minor units accrued once they reach the threshold; the fraction carries", () => {
    expect(settlementOf(meter(1_200_000n))).toEqual({ minor: 1n, takenBase: 1_000_000n });
    expect(settlementOf(meter(7_999_999n, 5))).toEqual({ minor: 7n, takenBase: 7_000_000n });
  });

  it("bills nothing below the threshold", () => {
    expect(settlementOf(meter(999_999n))).toEqual({ minor: 0n, takenBase: 0n });
    expect(settlementOf(meter(4_999_999n, 5))).toEqual({ minor: 0n, takenBase: 0n });
  });

  it("a closed meter bills the rest whatever the threshold, rounded half up, carrying nothing", () => {
    expect(settlementOf(meter(2_400_000n, 100, "closed"))).toEqual({ minor: 2n, takenBase: 2_400_000n });
    expect(settlementOf(meter(2_500_000n, 100, "closed"))).toEqual({ minor: 3n, takenBase: 2_500_000n });
    expect(settlementOf(meter(499_999n, 100, "closed"))).toEqual({ minor: 0n, takenBase: 0n });
  });
});

describe("decimalMinor", () => {
  it("writes base units as a decimal of minor units", () => {
    expect(decimalMinor(400_000n, M)).toBe("0.4");
    expect(decimalMinor(1_000_000n, M)).toBe("1");
    expect(decimalMinor(1_000_001n, M)).toBe("1.000001");
    expect(decimalMinor(4_000n, M)).toBe("0.004");
    expect(decimalMinor(7n, 1n)).toBe("7");
    expect(decimalMinor(15n, 10n)).toBe("1.5");
  });
});
