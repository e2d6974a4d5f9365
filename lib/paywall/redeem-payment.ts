// POST /v1/paywall/redemptions: the service-backed consumed store (SPEC.md 2.7). One statement decides:
// the unique key (merchant, mode, PaymentIntent) lets exactly one insert win however many processes race,
// and the same statement says whether the PaymentIntent is the merchant's at all and, when the row was
// already there, whose request wrote it. A retry of the winning request (same key, same Idempotency-Key,
// e.g. after its response was lost) is answered `redeemed: true` again; anyone else gets already_redeemed.
import { statement, type Sql } from "../db";
import { NotFoundError } from "../errors";
import { createId } from "../ids";
import type { Scope } from "../scope";
import { requestDigest } from "./request-digest";
import type { RedeemPaymentInput } from "./schemas";

export type RedeemResult = { redeemed: true } | { redeemed: false; result: "already_redeemed" };

interface Row {
  found: boolean;
  inserted: boolean;
  prior_digest: string | null;
}

// $1 PaymentIntent, $2 merchant, $3 livemode, $4 new redemption id, $5 request digest.
const REDEEM = statement(
  "paywall_redeem",
  `WITH pi AS (
     SELECT id FROM payment_intents WHERE id = $1 AND merchant_id = $2 AND livemode = $3
   ), ins AS (
     INSERT INTO paywall_redemptions (id, merchant_id, livemode, payment_intent_id, request_digest)
     SELECT $4, $2, $3, pi.id, $5 FROM pi
     ON CONFLICT (merchant_id, livemode, payment_intent_id) DO NOTHING
     RETURNING id
   )
   SELECT EXISTS (SELECT 1 FROM pi) AS found, EXISTS (SELECT 1 FROM ins) AS inserted,
          (SELECT request_digest FROM paywall_redemptions
            WHERE merchant_id = $2 AND livemode = $3 AND payment_intent_id = $1) AS prior_digest`,
);

const PRIOR_DIGEST = statement(
  "paywall_redemption_digest",
  "SELECT request_digest FROM paywall_redemptions WHERE merchant_id = $1 AND livemode = $2 AND payment_intent_id = $3",
);

export async function redeemPayment(db: Sql, principal: Scope & { apiKeyId: string }, input: RedeemPaymentInput, idempotencyKey: string | null): Promise<RedeemResult> {
  const { merchantId, livemode } = principal;
  const pi = input.paymentIntentId;
  if (!pi.startsWith("pi_")) throw new NotFoundError("payment_intent", pi);
  const digest = requestDigest(principal.apiKeyId, idempotencyKey);
  const [row] = await db.rows<Row>(REDEEM, [pi, merchantId, livemode, createId("paywallRedemption"), digest]);
  if (!row.found) throw new NotFoundError("payment_intent", pi);
  if (row.inserted) return { redeemed: true };
  if (digest === null) return { redeemed: false, result: "already_redeemed" };
  // The winner may have committed after this statement's snapshot was taken (it raced us): read it now.
  const prior = row.prior_digest ?? (await db.rows<{ request_digest: string | null }>(PRIOR_DIGEST, [merchantId, livemode, pi]))[0]?.request_digest;
  return prior === digest ? { redeemed: true } : { redeemed: false, result: "already_redeemed" };
}
