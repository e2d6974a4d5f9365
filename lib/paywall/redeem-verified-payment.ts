// POST /v1/paywall/redemptions { paymentIntentId, merchantId?, amount, currency, sku }: verify and redeem
// in ONE statement, the SDK's hot path in one request when its consumed store is this service's
// (docs/paywall.md). The terms are checked exactly as POST /v1/paywall/verify checks them (the same SQL
// fragment, terms-check.ts, the same reason codes and answer, verify-payment.ts's refusal), and the
// redemption is inserted only when they pass: a proof that does not fit is never consumed. First insert
// wins, and the winner's own retry is answered redeemed again, as for a plain redemption.
import type { Sql } from "../db";
import { createId } from "../ids";
import { PAYMENT_INTENTS_NOW } from "../checkouts/seen-now";
import { serializePaymentIntent, type PaymentIntentObject } from "../payments/serialize";
import type { Scope } from "../scope";
import { requestDigest } from "../idempotency/request-key";
import { redemptionStatement, wonRedemption, type RedemptionOutcome } from "./redemption-statement";
import type { PaywallReasonCode, VerifiedRedemptionInput } from "./schemas";
import { termsMismatchSql } from "./terms-check";
import { assertOwnMerchant, NOT_FOUND, refusal, type CheckedPaymentIntent } from "./verify-payment";

export type VerifiedRedeemResult =
  | { redeemed: true; paymentIntent: PaymentIntentObject }
  | { redeemed: false; result: "already_redeemed" }
  | { redeemed: false; valid: false; reasonCode: PaywallReasonCode; details?: { paymentIntentStatus: string } };

// $6 amount, $7 currency, $8 sku.
const REDEEM_VERIFIED = redemptionStatement(
  "paywall_redeem_verified",
  `${PAYMENT_INTENTS_NOW.columns}, ${termsMismatchSql({ amount: "$6", currency: "$7", sku: "$8" })} AS "reasonCode"`,
  `pi."reasonCode" IS NULL`,
);

type Row = RedemptionOutcome & (CheckedPaymentIntent | { [K in keyof CheckedPaymentIntent]: null });

export async function redeemVerifiedPayment(
  db: Sql,
  principal: Scope & { apiKeyId: string },
  input: VerifiedRedemptionInput,
  idempotencyKey: string | null,
): Promise<VerifiedRedeemResult> {
  assertOwnMerchant(principal, input.merchantId);
  const id = input.paymentIntentId;
  if (!id.startsWith("pi_")) return { redeemed: false, ...NOT_FOUND };

  const digest = requestDigest(principal.apiKeyId, idempotencyKey);
  const values = [
    id,
    principal.merchantId,
    principal.livemode,
    createId("paywallRedemption"),
    digest,
    input.amount,
    input.currency,
    input.sku,
  ];
  const [row] = await db.rows<Row>(REDEEM_VERIFIED, values);
  // A proof that does not fit: nothing was inserted for it.
  if (row.id === null) return { redeemed: false, ...NOT_FOUND };
  if (row.reasonCode !== null) return { redeemed: false, ...refusal(row.reasonCode, row.status) };
  if (!(await wonRedemption(db, principal, id, row, digest))) return { redeemed: false, result: "already_redeemed" };
  return { redeemed: true, paymentIntent: serializePaymentIntent(row) };
}
