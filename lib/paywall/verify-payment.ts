// POST /v1/paywall/verify: did this PaymentIntent pay exactly these terms, for the calling merchant?
// The hot path of every paid call: one named statement after the API-key statement, no transaction, no
// idempotency record (verifying changes nothing). Only a still-unpaid PaymentIntent whose checkout is
// overdue costs more: it is expired first, so the answer names its real status.
import { expireOverdueCheckouts } from "../checkouts/expire-checkouts";
import { getDb, statement, type Sql } from "../db";
import { ForbiddenError } from "../errors";
import { PAYMENT_INTENT_COLUMNS, serializePaymentIntent, type PaymentIntentFields, type PaymentIntentObject } from "../payments/serialize";
import type { Scope } from "../scope";
import type { PaywallReasonCode, VerifyPaymentInput } from "./schemas";
import { termsMismatch } from "./terms-check";

export type VerifyResult =
  | { valid: true; paymentIntent: PaymentIntentObject }
  | { valid: false; reasonCode: PaywallReasonCode; details?: { paymentIntentStatus: string } };

const FIND_PAYMENT_INTENT = statement(
  "paywall_verify_find",
  `SELECT ${PAYMENT_INTENT_COLUMNS} FROM payment_intents WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
);

export async function verifyPayment(db: Sql, scope: Scope, input: VerifyPaymentInput): Promise<VerifyResult> {
  // A key verifies payments to its own merchant only; naming another is a mistake worth saying loudly.
  if (input.merchantId !== scope.merchantId) throw new ForbiddenError("merchantId must be the merchant of the API key used.");
  const pi = await findPaymentIntent(db, scope, input.paymentIntentId);
  if (!pi) return { valid: false, reasonCode: "not_found" };
  const reasonCode = termsMismatch(pi, input);
  if (reasonCode === "not_captured") return { valid: false, reasonCode, details: { paymentIntentStatus: pi.status } };
  if (reasonCode) return { valid: false, reasonCode };
  return { valid: true, paymentIntent: serializePaymentIntent(pi) };
}

/** The merchant's PaymentIntent in this mode (another merchant's, or the other mode's, is not found). */
async function findPaymentIntent(db: Sql, scope: Scope, id: string): Promise<PaymentIntentFields | null> {
  if (!id.startsWith("pi_")) return null;
  const find = async () => (await db.rows<PaymentIntentFields>(FIND_PAYMENT_INTENT, [id, scope.merchantId, scope.livemode]))[0] ?? null;
  const pi = await find();
  if (pi?.status === "requires_payment" && pi.checkoutId && (await expireOverdueCheckouts(getDb(), { scope, checkoutIds: [pi.checkoutId] }))) {
    return find();
  }
  return pi;
}
