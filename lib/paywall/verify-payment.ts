// POST /v1/paywall/verify: did this PaymentIntent pay exactly these terms, for the calling merchant?
// One named statement after the API-key statement, no transaction, no idempotency record (verifying
// changes nothing); the rule is terms-check.ts's SQL fragment, shared with the combined verify-and-redeem
// (redeem-verified-payment.ts). The PaymentIntent's status is read as seen now (checkouts/seen-now.ts): an
// unpaid one whose checkout is overdue is named expired, with nothing written.
import { PAYMENT_INTENTS_NOW } from "../checkouts/seen-now";
import { statement, type Sql } from "../db";
import { ForbiddenError } from "../errors";
import { serializePaymentIntent, type PaymentIntentFields, type PaymentIntentObject } from "../payments/serialize";
import type { Scope } from "../scope";
import type { PaywallReasonCode, PaywallTermsToCheck, VerifyPaymentInput } from "./schemas";
import { termsMismatchSql, type TermsMismatch } from "./terms-check";

export type VerifyResult =
  | { valid: true; paymentIntent: PaymentIntentObject }
  | { valid: false; reasonCode: PaywallReasonCode; details?: { paymentIntentStatus: string } };

/** A PaymentIntent read together with the rule's verdict on it. */
export type CheckedPaymentIntent = PaymentIntentFields & { reasonCode: TermsMismatch };

const FIND_AND_CHECK = statement(
  "paywall_verify_find",
  `SELECT ${PAYMENT_INTENTS_NOW.columns}, ${termsMismatchSql({ amount: "$4", currency: "$5", sku: "$6" })} AS "reasonCode"
     FROM payment_intents WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
);

export async function verifyPayment(db: Sql, scope: Scope, input: VerifyPaymentInput): Promise<VerifyResult> {
  assertOwnMerchant(scope, input.merchantId);
  const pi = await checkPaymentIntent(db, scope, input.paymentIntentId, input);
  if (!pi) return NOT_FOUND;
  if (pi.reasonCode) return refusal(pi.reasonCode, pi.status);
  return { valid: true, paymentIntent: serializePaymentIntent(pi) };
}

/** A key verifies payments to its own merchant only; naming another is a mistake worth saying loudly. */
export function assertOwnMerchant(scope: Scope, merchantId: string | undefined): void {
  if (merchantId !== undefined && merchantId !== scope.merchantId)
    throw new ForbiddenError("merchantId must be the merchant of the API key used.");
}

/** The merchant's PaymentIntent in this mode, checked against the terms (another merchant's is not found). */
export async function checkPaymentIntent(
  db: Sql,
  scope: Scope,
  id: string,
  terms: PaywallTermsToCheck,
): Promise<CheckedPaymentIntent | null> {
  if (!id.startsWith("pi_")) return null;
  const values = [id, scope.merchantId, scope.livemode, terms.amount, terms.currency, terms.sku];
  return (await db.rows<CheckedPaymentIntent>(FIND_AND_CHECK, values))[0] ?? null;
}

export type Refusal = Extract<VerifyResult, { valid: false }>;

export const NOT_FOUND: Refusal = { valid: false, reasonCode: "not_found" };

/** Why a PaymentIntent found does not pay the terms; not_captured names its status (as seen now: an overdue one is expired). */
export function refusal(reasonCode: NonNullable<TermsMismatch>, status: string): Refusal {
  return reasonCode === "not_captured"
    ? { valid: false, reasonCode, details: { paymentIntentStatus: status } }
    : { valid: false, reasonCode };
}
