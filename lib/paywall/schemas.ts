// Bodies of the paywall endpoints (docs/paywall.md).
import { z } from "zod";
import { BillingCountry, PaymentMethod } from "../checkouts/schemas";
import { MAX_AMOUNT } from "../money/limits";
import { PaymentIntentObject } from "../payments/schemas";
import { PAYMENT_INTENT_STATUSES } from "../payments/transitions";
import { Currency, MerchantId } from "../validation/common";

/** A tool's sku: what a paywall payment is bound to (docs/sdk.md "Paywall (single-use), for MCP tools"). */
export const Sku = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[\x20-\x7E]+$/, "printable ASCII");

/**
 * Any presented id up to the SDK's limit: a proof is whatever the caller sent, so an id that cannot
 * exist is an answer (not_found / 404), not a malformed request.
 */
const PresentedPaymentIntentId = z.string().min(1).max(255);

const Price = z.number().int("must be an integer in minor units").min(1).max(MAX_AMOUNT);

export const VerifyPaymentBody = z
  .object({ paymentIntentId: PresentedPaymentIntentId, merchantId: MerchantId, amount: Price, currency: Currency, sku: Sku })
  .strict();
export type VerifyPaymentInput = z.output<typeof VerifyPaymentBody>;

const TERMS = ["amount", "currency", "sku"] as const;

/**
 * `{ paymentIntentId }` consumes the proof; with the terms (`amount`, `currency`, `sku` together, and
 * optionally `merchantId`) it is verified as POST /v1/paywall/verify does and consumed only when valid,
 * in one statement: the SDK's hot path in one request (docs/paywall.md, "One call per paid call").
 */
export const RedeemPaymentBody = z
  .object({
    paymentIntentId: PresentedPaymentIntentId,
    merchantId: MerchantId.optional(),
    amount: Price.optional(),
    currency: Currency.optional(),
    sku: Sku.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    const given = TERMS.filter((term) => body[term] !== undefined);
    if (given.length === 0) {
      if (body.merchantId !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["merchantId"],
          message: "merchantId is a verification term: send it with amount, currency and sku, or leave it out",
        });
      }
      return;
    }
    for (const term of TERMS.filter((t) => body[t] === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: [term],
        message: "amount, currency and sku go together: send all three to verify in the same call, or none",
      });
    }
  });
export type RedeemPaymentInput = z.output<typeof RedeemPaymentBody>;

/** A redemption that carries the terms to verify first. */
export type VerifiedRedemptionInput = RedeemPaymentInput & PaywallTermsToCheck;

export function hasTerms(input: RedeemPaymentInput): input is VerifiedRedemptionInput {
  return input.amount !== undefined && input.currency !== undefined && input.sku !== undefined;
}

export const PayPaywallBody = z
  .object({
    merchantId: MerchantId,
    amount: Price,
    currency: Currency,
    sku: Sku,
    paymentMethod: PaymentMethod,
    billingCountry: BillingCountry.optional(),
    /** The gate's productRef (docs/sdk.md "Paywall (single-use), for MCP tools"): a product of the payee names the payment's line item. */
    productRef: z
      .string()
      .regex(/^prd_[0-9A-Za-z]{1,64}$/, "must be a prd_ reference")
      .optional(),
  })
  .strict();
export type PayPaywallInput = z.output<typeof PayPaywallBody>;

/** The terms a payment is checked against: what the gate asked for. */
export interface PaywallTermsToCheck {
  amount: number;
  currency: string;
  sku: string;
}

export const PAYWALL_REASON_CODES = [
  "not_captured",
  "insufficient_amount",
  "currency_mismatch",
  "reference_mismatch",
  "not_found",
] as const;
export type PaywallReasonCode = (typeof PAYWALL_REASON_CODES)[number];

// Responses.

const NotValid = {
  valid: z.literal(false),
  reasonCode: z.enum(PAYWALL_REASON_CODES),
  /** not_captured: the PaymentIntent's status. */
  details: z.object({ paymentIntentStatus: z.string() }).optional(),
};

export const PaywallVerifyResult = z
  .union([z.object({ valid: z.literal(true), paymentIntent: PaymentIntentObject }), z.object(NotValid)])
  .meta({ id: "PaywallVerifyResult" });

/** POST /v1/paywall/redemptions, with or without the terms to verify first. */
export const PaywallRedemptionResult = z
  .union([
    z.object({ redeemed: z.literal(true), paymentIntent: PaymentIntentObject.optional() }),
    z.object({ redeemed: z.literal(false), result: z.literal("already_redeemed") }),
    z.object({ redeemed: z.literal(false), ...NotValid }),
  ])
  .meta({ id: "PaywallRedemptionResult" });

export const PaywallPayResult = z
  .object({
    object: z.literal("paywall_payment"),
    paymentIntentId: z.string(),
    status: z.enum(PAYMENT_INTENT_STATUSES),
    merchantId: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    sku: z.string().nullable(),
    livemode: z.boolean(),
  })
  .meta({ id: "PaywallPayResult" });
