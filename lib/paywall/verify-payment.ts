// POST /v1/paywall/verify: did this PaymentIntent pay exactly these terms, for the calling merchant?
// One named statement after the API-key statement, no transaction, no idempotency record (verifying
// changes nothing); the rule is terms-check.ts's SQL fragment, shared with the combined verify-and-redeem
// (redeem-verified-payment.ts). Only a still-unpaid PaymentIntent whose checkout is overdue costs more: it
// is expired first, so the answer names its real status.
import { expireOverdueCheckouts } from "../checkouts/expire-checkouts";
import { getDb, statement, type Sql } from "../db";
import { ForbiddenError } from "../errors";
import { PAYMENT_INTENT_COLUMNS, serializePaymentIntent, type PaymentIntentFields, type PaymentIntentObject } from "../payments/serialize";
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
  `SELECT ${PAYMENT_INTENT_COLUMNS}, ${termsMismatchSql({ amount: "$4", currency: "$5", sku: "$6" })} AS "reasonCode"
     FROM payment_intents WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
);

export async function verifyPayment(db: Sql, scope: Scope, input: VerifyPaymentInput): Promise<VerifyResult> {
  assertOwnMerchant(scope, input.merchantId);
  const check = () => checkPaymentIntent(db, scope, input.paymentIntentId, input);
  return verdictOf(scope, await check(), check);
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

/**
 * The answer for a checked PaymentIntent. An unpaid one whose checkout is overdue is expired first and
 * checked again (`recheck`), so `details.paymentIntentStatus` names its real status.
 */
export async function verdictOf(
  scope: Scope,
  checked: CheckedPaymentIntent | null,
  recheck: () => Promise<CheckedPaymentIntent | null>,
): Promise<VerifyResult> {
  let pi = checked;
  if (
    pi?.status === "requires_payment" &&
    pi.checkoutId &&
    (await expireOverdueCheckouts(getDb(), { scope, checkoutIds: [pi.checkoutId] }))
  ) {
    pi = await recheck();
  }
  if (!pi) return { valid: false, reasonCode: "not_found" };
  if (pi.reasonCode === "not_captured") return { valid: false, reasonCode: pi.reasonCode, details: { paymentIntentStatus: pi.status } };
  if (pi.reasonCode) return { valid: false, reasonCode: pi.reasonCode };
  return { valid: true, paymentIntent: serializePaymentIntent(pi) };
}
