// POST /v1/paywall/redemptions: the service-backed consumed store (SPEC.md 2.7). One statement decides:
// the unique key (merchant, mode, PaymentIntent) lets exactly one insert win however many processes race,
// and the same statement says whether the PaymentIntent is the merchant's at all and, when the row was
// already there, whose request wrote it. A retry of the winning request (same key, same Idempotency-Key,
// e.g. after its response was lost) is answered `redeemed: true` again; anyone else gets already_redeemed.
import type { Db } from "../db";
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

export async function redeemPayment(db: Db, principal: Scope & { apiKeyId: string }, input: RedeemPaymentInput, idempotencyKey: string | null): Promise<RedeemResult> {
  const { merchantId, livemode } = principal;
  const pi = input.paymentIntentId;
  if (!pi.startsWith("pi_")) throw new NotFoundError("payment_intent", pi);
  const digest = requestDigest(principal.apiKeyId, idempotencyKey);
  const [row] = await db.$queryRaw<Row[]>`
    WITH pi AS (
      SELECT id FROM payment_intents WHERE id = ${pi} AND merchant_id = ${merchantId} AND livemode = ${livemode}
    ), ins AS (
      INSERT INTO paywall_redemptions (id, merchant_id, livemode, payment_intent_id, request_digest)
      SELECT ${createId("paywallRedemption")}, ${merchantId}, ${livemode}, pi.id, ${digest} FROM pi
      ON CONFLICT (merchant_id, livemode, payment_intent_id) DO NOTHING
      RETURNING id
    )
    SELECT EXISTS (SELECT 1 FROM pi) AS found, EXISTS (SELECT 1 FROM ins) AS inserted,
           (SELECT request_digest FROM paywall_redemptions
             WHERE merchant_id = ${merchantId} AND livemode = ${livemode} AND payment_intent_id = ${pi}) AS prior_digest`;
  if (!row.found) throw new NotFoundError("payment_intent", pi);
  if (row.inserted) return { redeemed: true };
  if (digest === null) return { redeemed: false, result: "already_redeemed" };
  // The winner committed after this statement's snapshot was taken (it raced us): read its digest now.
  const prior = row.prior_digest ?? (await priorDigest(db, merchantId, livemode, pi));
  return prior === digest ? { redeemed: true } : { redeemed: false, result: "already_redeemed" };
}

async function priorDigest(db: Db, merchantId: string, livemode: boolean, paymentIntentId: string): Promise<string | null> {
  const redemption = await db.paywallRedemption.findUnique({
    where: { merchantId_livemode_paymentIntentId: { merchantId, livemode, paymentIntentId } },
    select: { requestDigest: true },
  });
  return redemption?.requestDigest ?? null;
}
