// POST /v1/paywall/redemptions: consume a paywall payment once (docs/paywall.md "Redemptions: first one wins");
// with the terms, verify it first and consume it only when it pays them ("One request per paid call"). Either is
// ONE statement (redemption-statement.ts), planned from the body before the caller is known and run by the route
// inside the API-key statement: one round trip per request. The statement inserts the redemption for exactly one
// request however many race, and recognises a retry of the winning request (same key, same Idempotency-Key, e.g.
// after its response was lost): that one is answered `redeemed: true` again; anyone else gets already_redeemed.
// With terms the answers are verify's (the same SQL fragment, terms-check.ts), and a proof that does not fit is
// never consumed.
import type { CallerQuery, Sql } from "../db";
import { NotFoundError } from "../errors";
import { createId } from "../ids";
import { serializePaymentIntent, type PaymentIntentObject } from "../payments/serialize";
import type { Scope } from "../scope";
import { REDEEM, wonRedemption, type RedemptionRow } from "./redemption-statement";
import { hasTerms, type RedeemPaymentInput } from "./schemas";
import { assertOwnMerchant, checkedValues, NOT_FOUND, refusal, type Refusal } from "./verify-payment";

export type RedeemResult =
  | { redeemed: true; paymentIntent?: PaymentIntentObject }
  | { redeemed: false; result: "already_redeemed" }
  | ({ redeemed: false } & Refusal);

/** The redemption's statement for this body and Idempotency-Key, before its caller is known. */
export function redemptionQuery(input: RedeemPaymentInput, idempotencyKey: string | null): CallerQuery<RedemptionRow> {
  const checked = checkedValues(input.paymentIntentId, input.merchantId, hasTerms(input) ? input : {});
  return { statement: REDEEM, values: [...checked, createId("paywallRedemption"), idempotencyKey] };
}

/** The redemption's answer from its statement's row. */
export async function redeemPayment(db: Sql, scope: Scope, input: RedeemPaymentInput, row: RedemptionRow): Promise<RedeemResult> {
  assertOwnMerchant(scope, input.merchantId);
  const verifying = hasTerms(input);
  if (row.id === null) {
    if (verifying) return { redeemed: false, ...NOT_FOUND };
    throw new NotFoundError("payment_intent", input.paymentIntentId);
  }
  // A proof that does not fit: nothing was inserted for it.
  if (row.reasonCode !== null) return { redeemed: false, ...refusal(row.reasonCode, row.status) };
  if (!(await wonRedemption(db, scope, row.id, row))) return { redeemed: false, result: "already_redeemed" };
  return verifying ? { redeemed: true, paymentIntent: serializePaymentIntent(row) } : { redeemed: true };
}
