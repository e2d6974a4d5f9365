// Bodies of the paywall endpoints (CONTRACT.md "Paywall (service side)").
import { z } from "zod";
import { BillingCountry, MAX_AMOUNT, PaymentMethod } from "../checkouts/schemas";
import { Currency } from "../validation/common";

/** A tool's sku: what a paywall payment is bound to (SPEC.md 2.4). */
export const Sku = z.string().trim().min(1).max(200).regex(/^[\x20-\x7E]+$/, "printable ASCII");

export const MerchantId = z.string().regex(/^mer_[0-9A-Za-z]{10,64}$/, "must be a merchant id");

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

export const RedeemPaymentBody = z.object({ paymentIntentId: PresentedPaymentIntentId }).strict();
export type RedeemPaymentInput = z.output<typeof RedeemPaymentBody>;

export const PayPaywallBody = z
  .object({
    merchantId: MerchantId,
    amount: Price,
    currency: Currency,
    sku: Sku,
    paymentMethod: PaymentMethod,
    billingCountry: BillingCountry.optional(),
  })
  .strict();
export type PayPaywallInput = z.output<typeof PayPaywallBody>;

/** The terms a payment is checked against: what the gate asked for. */
export interface PaywallTermsToCheck {
  amount: number;
  currency: string;
  sku: string;
}

export type PaywallReasonCode = "not_captured" | "insufficient_amount" | "currency_mismatch" | "reference_mismatch" | "not_found";
