// Request schemas of /v1/meters. Prices and amounts of usage are in BASE units: a meter's
// `baseUnitsPerMinor` (default 1,000,000) of them make one minor unit, so 0.4 cent is 400,000.
import { z } from "zod";
import { BillingCountry, PaymentMethod } from "../checkouts/schemas";
import { MAX_AMOUNT } from "../money/limits";
import { PAYMENT_INTENT_STATUSES } from "../payments/transitions";
import { Currency, ListQuery, Metadata } from "../validation/common";
import { listOf, StoredMetadata, Timestamp } from "../validation/objects";

export const DEFAULT_BASE_UNITS_PER_MINOR = 1_000_000;
/** Largest amount of one usage record or reservation, in base units (keeps every sum a safe integer). */
export const MAX_AMOUNT_BASE = 1e15;

const MinorAmount = (min: number) => z.number().int("must be an integer in minor units").min(min).max(MAX_AMOUNT);
const Key = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x20-\x7e]+$/, "must be printable ASCII");

export const CreateMeterBody = z
  .object({
    customerId: z.string().min(1).max(64),
    currency: Currency,
    thresholdMinor: MinorAmount(1),
    prepaid: z.boolean({ error: "required: true (reserve against a funded budget) or false (post-paid usage records)" }),
    budgetMinor: MinorAmount(0).optional(),
    /** Charged by the funding (prepaid) or aggregate (post-paid) PaymentIntents; defaults to the customer's own wallet (`customerId`). */
    paymentMethod: z.string().min(1).max(128).optional(),
    baseUnitsPerMinor: z.number().int().min(1).max(DEFAULT_BASE_UNITS_PER_MINOR).optional(),
    metadata: Metadata.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (!body.prepaid && body.budgetMinor !== undefined) {
      ctx.addIssue({ code: "custom", path: ["budgetMinor"], message: "only a prepaid meter has a budget" });
    }
  });
export type CreateMeterInput = z.output<typeof CreateMeterBody>;

const Usage = {
  quantity: z.number().int("must be a whole number of units").min(1).max(1_000_000_000),
  /** Price per unit in BASE units. */
  unitPriceMinor: z.number().int("must be an integer in base units").min(1).max(MAX_AMOUNT_BASE),
};

function withinAmountLimit(body: { quantity: number; unitPriceMinor: number }, ctx: z.RefinementCtx) {
  if (body.quantity * body.unitPriceMinor > MAX_AMOUNT_BASE) {
    ctx.addIssue({
      code: "custom",
      path: ["quantity"],
      message: `quantity x unitPriceMinor must be at most ${MAX_AMOUNT_BASE} base units`,
    });
  }
}

export const RecordUsageBody = z
  .object({ ...Usage, idempotencyKey: Key })
  .strict()
  .superRefine(withinAmountLimit);
export type RecordUsageInput = z.output<typeof RecordUsageBody>;

/** Most records in one POST /v1/meters/usage_batches. */
export const MAX_USAGE_BATCH = 1000;
/** How far a record's `timestamp` may lie in the past (Stripe's meter events: 35 days) and the future (clock skew). */
export const USAGE_TIMESTAMP_MAX_AGE_MS = 35 * 24 * 3600 * 1000;
export const USAGE_TIMESTAMP_MAX_AHEAD_MS = 5 * 60 * 1000;

const UsageTimestamp = z.iso
  .datetime({ offset: true, message: "must be an ISO-8601 date-time with a time zone (2026-11-25T10:00:00Z)" })
  .refine((value) => {
    const at = Date.parse(value);
    return at >= Date.now() - USAGE_TIMESTAMP_MAX_AGE_MS && at <= Date.now() + USAGE_TIMESTAMP_MAX_AHEAD_MS;
  }, "must be within the last 35 days and at most 5 minutes ahead");

export const UsageBatchRecord = z
  .object({ meterId: z.string().min(1).max(64), ...Usage, idempotencyKey: Key, timestamp: UsageTimestamp.optional() })
  .strict()
  .superRefine(withinAmountLimit);
export type UsageBatchRecordInput = z.output<typeof UsageBatchRecord>;

/** A malformed record refuses the whole batch (docs/meters.md "Usage in batches"): nothing is counted. */
export const UsageBatchBody = z
  .object({ records: z.array(UsageBatchRecord).min(1).max(MAX_USAGE_BATCH, `at most ${MAX_USAGE_BATCH} records per batch`) })
  .strict();

export const ReserveBody = z
  .object({ ...Usage, idempotencyKey: Key.optional() })
  .strict()
  .superRefine(withinAmountLimit);
export type ReserveInput = z.output<typeof ReserveBody>;

export const TopUpBody = z
  .object({
    amountMinor: MinorAmount(1),
    /** Charged for this top-up; defaults to the meter's payment method. */
    paymentMethod: z.string().min(1).max(128).optional(),
  })
  .strict();
export type TopUpInput = z.output<typeof TopUpBody>;

/** POST /v1/meters/:id/fund: the PAYER's own key; a test card or one of the payer's own customers' wallets. */
export const FundMeterBody = z
  .object({
    amountMinor: MinorAmount(1),
    /** The meter's currency, stated by the payer: an agent never pays an amount in a currency it did not name. */
    currency: Currency,
    paymentMethod: PaymentMethod,
    billingCountry: BillingCountry.optional(),
    /** The payer's spending agent this funding pays as (docs/spending-policies.md): its policy is checked at the charge. */
    spendingAgentId: z
      .string()
      .regex(/^sag_[0-9A-Za-z]{1,64}$/, "must be a sag_ id")
      .optional(),
  })
  .strict();
export type FundMeterInput = z.output<typeof FundMeterBody>;

export const RetryPaymentBody = z.object({ paymentMethod: z.string().min(1).max(128).optional() }).strict();
export type RetryPaymentInput = z.output<typeof RetryPaymentBody>;

export const EmptyBody = z.object({}).strict();

export const METER_STATUSES = ["open", "past_due", "closed"] as const;

export const ListMetersQuery = ListQuery.extend({
  status: z.enum(METER_STATUSES).optional(),
  customerId: z.string().min(1).max(64).optional(),
}).strict();
export type ListMetersInput = z.output<typeof ListMetersQuery>;

export const USAGE_SUMMARY_INTERVALS = ["hour", "day"] as const;
export type UsageSummaryInterval = (typeof USAGE_SUMMARY_INTERVALS)[number];

const SummaryTime = z.iso.datetime({ offset: true, message: "must be an ISO-8601 date-time with a time zone (2026-11-25T10:00:00Z)" });

/** GET /v1/meters/:id/usage_summary: the window is checked against the interval in usage-summary.ts. */
export const UsageSummaryQuery = z
  .object({ interval: z.enum(USAGE_SUMMARY_INTERVALS).default("hour"), from: SummaryTime.optional(), to: SummaryTime.optional() })
  .strict();
export type UsageSummaryInput = z.output<typeof UsageSummaryQuery>;

// Responses. Base-unit amounts are BIGINT columns returned as JSON numbers (every value the bodies admit stays below 2^53).

export const MeterObject = z
  .object({
    id: z.string(),
    object: z.literal("meter"),
    status: z.enum(METER_STATUSES),
    customerId: z.string(),
    currency: z.string(),
    prepaid: z.boolean(),
    /** What the aggregate (post-paid) or funding (prepaid) PaymentIntents charge. */
    paymentMethod: z.string(),
    thresholdMinor: z.number().int(),
    /** Base units per minor unit (default 1,000,000). */
    baseUnitsPerMinor: z.number().int(),
    /** Metered, not yet billed: the fraction of a minor unit carries over here. */
    accruedBase: z.number().int(),
    /** Prepaid: base units held by open reservations. */
    reservedBase: z.number().int(),
    /** Prepaid: the funded budget in base units (null for post-paid meters). */
    budgetBase: z.number().int().nullable(),
    /** Prepaid: budgetBase - usedBase - reservedBase (null for post-paid meters). */
    availableBase: z.number().int().nullable(),
    /** Everything ever metered, in base units. */
    usedBase: z.number().int(),
    /** Post-paid: billed in aggregate PaymentIntents. Prepaid: drawn from the funds (set at close). */
    billedMinor: z.number().int(),
    /** Prepaid: charged up front by captured fundings (null for post-paid meters). */
    fundedMinor: z.number().int().nullable(),
    /** Prepaid: unused funds refunded after close (null for post-paid meters). */
    refundedMinor: z.number().int().nullable(),
    /** Declined and not yet collected: POST /v1/meters/:id/retry-payment bills it again. */
    outstandingMinor: z.number().int(),
    settlementCount: z.number().int(),
    metadata: StoredMetadata,
    livemode: z.boolean(),
    closedAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: "Meter" });

export const MeterList = listOf(MeterObject, "MeterList");

const PricedUsage = {
  meterId: z.string(),
  quantity: z.number().int(),
  /** As sent: the price per unit in base units. */
  unitPriceMinor: z.number().int(),
  unitPriceBase: z.number().int(),
  /** The unit price in minor units as a decimal string ("0.4"). */
  unitPriceDecimal: z.string(),
  amountBase: z.number().int(),
};

export const MeterUsageRecordObject = z
  .object({
    id: z.string(),
    object: z.literal("meter_usage_record"),
    ...PricedUsage,
    idempotencyKey: z.string(),
    livemode: z.boolean(),
    createdAt: Timestamp,
  })
  .meta({ id: "MeterUsageRecord" });

export const MeterReservationObject = z
  .object({
    id: z.string(),
    object: z.literal("meter_reservation"),
    status: z.enum(["held", "committed", "released"]),
    ...PricedUsage,
    /** The body's idempotencyKey (null when the Idempotency-Key header named the hold). */
    idempotencyKey: z.string().nullable(),
    /** failed (released by the caller) | expired (by the service) | closed (the meter closed). */
    releaseReason: z.string().nullable(),
    expiresAt: Timestamp,
    livemode: z.boolean(),
    createdAt: Timestamp,
    /** POST /v1/meters/:id/reservations only: true when this request (or its own retry) created the hold. */
    created: z.boolean().optional(),
  })
  .meta({ id: "MeterReservation" });

/** The payer's answer to POST /v1/meters/:id/fund: its funding only, nothing of the merchant's meter. */
export const MeterFundingObject = z
  .object({
    object: z.literal("meter_funding"),
    meterId: z.string(),
    paymentIntentId: z.string(),
    status: z.enum(PAYMENT_INTENT_STATUSES),
    amount: z.number().int(),
    currency: z.string(),
    livemode: z.boolean(),
  })
  .meta({ id: "MeterFunding" });

const BatchResultBase = { idempotencyKey: z.string(), meterId: z.string() };

export const MeterUsageBatchResult = z
  .union([
    z.object({ ...BatchResultBase, status: z.enum(["accepted", "duplicate"]), usageRecordId: z.string() }),
    z.object({ ...BatchResultBase, status: z.literal("refused"), error: z.object({ code: z.string(), message: z.string() }) }),
  ])
  .meta({ id: "MeterUsageBatchResult" });

export const MeterUsageBatchObject = z
  .object({
    object: z.literal("usage_batch"),
    accepted: z.number().int(),
    duplicates: z.number().int(),
    refused: z.number().int(),
    /** One per record, in request order. */
    results: z.array(MeterUsageBatchResult),
  })
  .meta({ id: "MeterUsageBatch" });

/** One hour or day of a usage summary: its first instant, and what was metered in it. */
export const MeterUsageSummaryBucket = z
  .object({ start: Timestamp, quantity: z.number().int(), amountBase: z.number().int() })
  .meta({ id: "MeterUsageSummaryBucket" });

export const MeterUsageSummaryObject = z
  .object({
    object: z.literal("usage_summary"),
    meterId: z.string(),
    interval: z.enum(USAGE_SUMMARY_INTERVALS),
    from: Timestamp,
    to: Timestamp,
    baseUnitsPerMinor: z.number().int(),
    data: z.array(MeterUsageSummaryBucket),
  })
  .meta({ id: "MeterUsageSummary" });
