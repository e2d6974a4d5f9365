// The API shapes of meters, usage records and reservations. Base-unit amounts are BIGINT columns; every
// value the schemas admit stays below 2^53, so they are returned as JSON numbers.
import type { z } from "zod";
import type { Meter } from "../generated/prisma/client";
import type { StoredMetadata } from "../validation/objects";
import type { METER_STATUSES, MeterObject, MeterReservationObject, MeterUsageRecordObject } from "./schemas";

/** A meter row as Prisma returns it, or as a raw `RETURNING *` of the meters table returns it. */
export function serializeMeter(meter: Meter) {
  const prepaid = meter.prepaid;
  return {
    id: meter.id,
    object: "meter" as const,
    status: meter.status as (typeof METER_STATUSES)[number],
    customerId: meter.customerId,
    currency: meter.currency,
    prepaid,
    paymentMethod: meter.paymentMethod,
    thresholdMinor: meter.thresholdMinor,
    baseUnitsPerMinor: Number(meter.baseUnitsPerMinor),
    /** Metered, not yet billed: the fraction of a minor unit carries over here. */
    accruedBase: Number(meter.accruedBase),
    reservedBase: Number(meter.reservedBase),
    budgetBase: prepaid ? Number(meter.budgetBase) : null,
    availableBase: prepaid ? Number(meter.budgetBase - meter.usedBase - meter.reservedBase) : null,
    usedBase: Number(meter.usedBase),
    /** Post-paid: carved into aggregate PaymentIntents. Prepaid: drawn from the funds (set at close). */
    billedMinor: Number(meter.billedMinor),
    /** Prepaid: charged up front by captured funding PaymentIntents; the budget is this in base units. */
    fundedMinor: prepaid ? Number(meter.fundedMinor) : null,
    /** Prepaid: funds the usage did not draw, refunded after close. */
    refundedMinor: prepaid ? Number(meter.refundedMinor) : null,
    /** Declined and not yet collected: POST /v1/meters/:id/retry-payment bills it again. */
    outstandingMinor: Number(meter.outstandingMinor),
    settlementCount: meter.settlementCount,
    metadata: meter.metadata as StoredMetadata,
    livemode: meter.livemode,
    closedAt: meter.closedAt?.toISOString() ?? null,
    createdAt: meter.createdAt.toISOString(),
  } satisfies z.input<typeof MeterObject>;
}

/** A raw row: BIGINT columns arrive as strings from pg. */
interface PricedRow {
  id: string;
  meter_id: string;
  quantity: number;
  unit_price_base: bigint | string;
  amount_base: bigint | string;
  created_at: Date;
}

/** Unit price as a decimal of minor units ("0.4" for 400,000 base units at 1,000,000 per minor unit). */
export function decimalMinor(base: bigint, baseUnitsPerMinor: bigint): string {
  const whole = base / baseUnitsPerMinor;
  const fraction = base % baseUnitsPerMinor;
  if (fraction === 0n) return whole.toString();
  const digits = baseUnitsPerMinor.toString().length - 1;
  return `${whole}.${fraction.toString().padStart(digits, "0").replace(/0+$/, "")}`;
}

function priced(row: PricedRow, baseUnitsPerMinor: bigint) {
  return {
    meterId: row.meter_id,
    quantity: row.quantity,
    /** As sent: the price per unit in base units. */
    unitPriceMinor: Number(row.unit_price_base),
    unitPriceBase: Number(row.unit_price_base),
    unitPriceDecimal: decimalMinor(BigInt(row.unit_price_base), baseUnitsPerMinor),
    amountBase: Number(row.amount_base),
  };
}

export interface UsageRecordRow extends PricedRow {
  idempotency_key: string;
}

export function serializeUsageRecord(row: UsageRecordRow, baseUnitsPerMinor: bigint, livemode: boolean) {
  return {
    id: row.id,
    object: "meter_usage_record" as const,
    ...priced(row, baseUnitsPerMinor),
    idempotencyKey: row.idempotency_key,
    livemode,
    createdAt: row.created_at.toISOString(),
  } satisfies z.input<typeof MeterUsageRecordObject>;
}

export interface ReservationRow extends PricedRow {
  idempotency_key: string | null;
  /** Digest of the creating request's API key and Idempotency-Key (internal, never serialized). */
  request_key?: string | null;
  status: string;
  release_reason: string | null;
  expires_at: Date;
}

/** Stored keys of reservations named by the Idempotency-Key header (a digest, see reserve.ts): not echoed. */
export const HEADER_KEY_PREFIX = "hdr:";

export function serializeReservation(row: ReservationRow, baseUnitsPerMinor: bigint, livemode: boolean) {
  return {
    id: row.id,
    object: "meter_reservation" as const,
    status: row.status as z.output<typeof MeterReservationObject>["status"],
    ...priced(row, baseUnitsPerMinor),
    idempotencyKey: row.idempotency_key?.startsWith(HEADER_KEY_PREFIX) ? null : row.idempotency_key,
    releaseReason: row.release_reason,
    expiresAt: row.expires_at.toISOString(),
    livemode,
    createdAt: row.created_at.toISOString(),
  } satisfies z.input<typeof MeterReservationObject>;
}
