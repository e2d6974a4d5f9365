// A meter's unbilled amount (accrued, plus held reservations that may still be committed) never exceeds
// what one PaymentIntent may carry (MAX_AMOUNT minor units, as a checkout), so every settlement fits its
// PaymentIntent and no meter can make the tick's settlement throw. The hot-path statements enforce it in
// their guarded UPDATE; this module names the limit and explains a refusal.
import { MAX_AMOUNT } from "../money/limits";
import { ConflictError, ValidationError } from "../errors";
import type { Meter } from "../generated/prisma/client";

/** SQL: the limit in base units of the meter aliased `m`. */
export const UNBILLED_LIMIT_SQL = `${MAX_AMOUNT}::bigint * m.base_units_per_minor`;

export function unbilledLimitBase(meter: Pick<Meter, "baseUnitsPerMinor">): bigint {
  return BigInt(MAX_AMOUNT) * meter.baseUnitsPerMinor;
}

/** Unbilled (accrued + reserved) after adding `amount`, or null when it fits under the limit. */
export function unbilledLimitError(meter: Meter, amount: bigint, field: string) {
  const limitBase = unbilledLimitBase(meter);
  if (amount > limitBase) {
    return new ValidationError(
      `quantity x unitPriceMinor must be at most ${limitBase} base units (${MAX_AMOUNT} minor units) on meter ${meter.id}.`,
      [{ path: field, message: `quantity x unitPriceMinor exceeds ${limitBase} base units` }],
    );
  }
  if (meter.accruedBase + meter.reservedBase + amount <= limitBase) return null;
  return new ConflictError(
    `Meter ${meter.id} has ${meter.accruedBase + meter.reservedBase} base units unbilled or held; this call would exceed ${MAX_AMOUNT} minor units, the most one aggregate PaymentIntent carries. Retry after the next settlement.`,
    {
      reason: "unbilled_limit",
      meterId: meter.id,
      limitBase: Number(limitBase),
      accruedBase: Number(meter.accruedBase),
      reservedBase: Number(meter.reservedBase),
      requiredBase: Number(amount),
    },
  );
}

/** 409 for a BIGINT sum that would overflow (pg 22003): never a 500. */
export function outOfRangeError(meterId: string) {
  return new ConflictError(`Meter ${meterId} cannot count more usage: its lifetime totals are at their limit.`, {
    reason: "meter_totals_limit",
    meterId,
  });
}
