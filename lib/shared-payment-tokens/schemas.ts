// Bodies and queries of /v1/shared_payment_tokens (docs/shared-payment-tokens.md).
import { z } from "zod";
import { checkSale, SaleFields } from "../checkouts/schemas";
import { MAX_AMOUNT } from "../money/limits";
import { Currency, ListQuery, MerchantId, Metadata } from "../validation/common";
import { listOf, StoredMetadata, Timestamp } from "../validation/objects";

/** Longest a token may live (the default is one hour). */
export const MAX_TOKEN_LIFETIME_SECONDS = 30 * 24 * 3600;
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;

export const MintTokenBody = z
  .object({
    /** A test payment method (pm_card_visa), a test card number as the pay page takes it, or the payer's own cus_ wallet. */
    paymentMethod: z.string().min(1).max(128),
    maxAmount: z.number().int("must be an integer in minor units").min(1).max(MAX_AMOUNT),
    currency: Currency,
    /** The only merchant that may redeem it; absent: any merchant (of the same mode). */
    merchantId: MerchantId.optional(),
    expiresAt: z.iso.datetime({ offset: true, message: "must be an ISO-8601 timestamp" }).optional(),
    metadata: Metadata.optional(),
    /** The payer's spending agent (sag_) it pays for: that agent's policy is checked at each charge (docs/spending-policies.md). */
    spendingAgentId: z.string().min(1).max(64).optional(),
  })
  .strict();
export type MintTokenInput = z.output<typeof MintTokenBody>;

export const TOKEN_STATUSES = ["active", "redeemed", "revoked", "expired"] as const;
export type TokenStatus = (typeof TOKEN_STATUSES)[number];

export const ListTokensQuery = ListQuery.extend({ status: z.enum(TOKEN_STATUSES).optional() }).strict();
export type ListTokensInput = z.output<typeof ListTokensQuery>;

export const RevokeTokenBody = z.object({}).strict().optional();

/**
 * What the merchant charges: `amount` or `items` (catalog or ad hoc, at most the token's maxAmount in all),
 * `currency` (default: the token's), and the checkout's optional description, metadata and productRef. The
 * payment is a checkout of the merchant captured at once, so order, ledger, events and refunds are the usual ones.
 */
export const RedeemTokenBody = z
  .object(SaleFields)
  .strict()
  .superRefine((body, ctx) => checkSale(body, ctx, { currencyRequired: false }));
export type RedeemTokenInput = z.output<typeof RedeemTokenBody>;

// Responses.

/** The payer's view of its own token. */
export const SharedPaymentTokenObject = z
  .object({
    id: z.string(),
    object: z.literal("shared_payment_token"),
    status: z.enum(TOKEN_STATUSES),
    paymentMethod: z.string(),
    maxAmount: z.number().int(),
    currency: z.string(),
    merchantId: z.string().nullable(),
    expiresAt: Timestamp,
    metadata: StoredMetadata,
    redeemedAt: Timestamp.nullable(),
    redeemedAmount: z.number().int().nullable(),
    /** The payee's PaymentIntent, once redeemed. */
    paymentIntentId: z.string().nullable(),
    revokedAt: Timestamp.nullable(),
    /** The payer's spending agent it pays for, if named. */
    spendingAgentId: z.string().nullable(),
    livemode: z.boolean(),
    createdAt: Timestamp,
  })
  .meta({ id: "SharedPaymentToken" });

export const SharedPaymentTokenList = listOf(SharedPaymentTokenObject, "SharedPaymentTokenList");
