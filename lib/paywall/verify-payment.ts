// POST /v1/paywall/verify: did this PaymentIntent pay exactly these terms, for the calling merchant?
// One read, no transaction, no idempotency record (verifying changes nothing), planned as a caller statement
// (lib/db.ts) that the route runs inside the API-key statement: one round trip in all. The rule is
// terms-check.ts's SQL fragment, in the CTE shared with the redemption's statement (redemption-statement.ts).
// The PaymentIntent's status is read as seen now (checkouts/seen-now.ts): an unpaid one whose checkout is
// overdue is named expired, with nothing written.
import { PAYMENT_INTENTS_NOW } from "../checkouts/seen-now";
import { callerStatement, runAsCaller, type CallerQuery, type Sql } from "../db";
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

/** The row of a statement selecting `pi.*` of the CTE below: all NULL when the caller has no such PaymentIntent. */
export type CheckedRow = CheckedPaymentIntent | { [K in keyof CheckedPaymentIntent]: null };

/**
 * The CTE `pi`: the caller's PaymentIntent $1 in its mode (another merchant's is not there), as seen now, with
 * the rule's verdict on the terms $3 amount, $4 currency, $5 sku (NULL: none). $2 is the body's merchantId: one
 * naming another merchant reads nothing (the answer is 403, assertOwnMerchant). For a caller statement (lib/db.ts).
 */
export const CHECKED_PAYMENT_INTENT = `pi AS (
  SELECT ${PAYMENT_INTENTS_NOW.columns}, ${termsMismatchSql({ amount: "$3", currency: "$4", sku: "$5" })} AS "reasonCode"
    FROM (SELECT * FROM payment_intents WHERE id = $1 OFFSET 0) AS payment_intents -- by the key alone: lib/customers/get-customer.ts
   WHERE merchant_id = (SELECT merchant_id FROM caller) AND livemode = (SELECT livemode FROM caller)
     AND merchant_id = COALESCE($2::text, merchant_id)
)`;

/** $1..$5 of CHECKED_PAYMENT_INTENT. */
export function checkedValues(id: string, merchantId: string | undefined, terms: Partial<PaywallTermsToCheck>): unknown[] {
  return [id, merchantId ?? null, terms.amount ?? null, terms.currency ?? null, terms.sku ?? null];
}

const VERIFY = callerStatement<CheckedRow>("paywall_verify", 5, {
  ctes: CHECKED_PAYMENT_INTENT,
  select: "SELECT pi.* FROM caller LEFT JOIN pi ON true",
});

/** Verify's statement for this input, before its caller is known. */
export function verifyQuery(input: VerifyPaymentInput): CallerQuery<CheckedRow> {
  return { statement: VERIFY, values: checkedValues(input.paymentIntentId, input.merchantId, input) };
}

/** Verify's answer from its statement's row. */
export function verdict(scope: Scope, input: VerifyPaymentInput, row: CheckedRow): VerifyResult {
  assertOwnMerchant(scope, input.merchantId);
  if (row.id === null) return NOT_FOUND;
  if (row.reasonCode) return refusal(row.reasonCode, row.status);
  return { valid: true, paymentIntent: serializePaymentIntent(row) };
}

/** Verify for a scope already known (the hosted terms page): the statement on its own. */
export async function verifyPayment(db: Sql, scope: Scope, input: VerifyPaymentInput): Promise<VerifyResult> {
  return verdict(scope, input, await runAsCaller(db, verifyQuery(input), { apiKeyId: null, ...scope }));
}

/** A key verifies payments to its own merchant only; naming another is a mistake worth saying loudly. */
export function assertOwnMerchant(scope: Scope, merchantId: string | undefined): void {
  if (merchantId !== undefined && merchantId !== scope.merchantId)
    throw new ForbiddenError("merchantId must be the merchant of the API key used.");
}

export type Refusal = Extract<VerifyResult, { valid: false }>;

export const NOT_FOUND: Refusal = { valid: false, reasonCode: "not_found" };

/** Why a PaymentIntent found does not pay the terms; not_captured names its status (as seen now: an overdue one is expired). */
export function refusal(reasonCode: NonNullable<TermsMismatch>, status: string): Refusal {
  return reasonCode === "not_captured"
    ? { valid: false, reasonCode, details: { paymentIntentStatus: status } }
    : { valid: false, reasonCode };
}
