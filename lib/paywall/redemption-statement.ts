// The one statement every redemption is, with or without terms: read the caller's PaymentIntent (checked
// against the terms when there are some, verify's CTE), insert the redemption when it may be redeemed, and say
// who holds the row, atomically. The unique key (merchant, mode, PaymentIntent) lets exactly one insert win
// however many processes race; the row keeps a digest of the request that wrote it (API key and
// Idempotency-Key, lib/idempotency/request-key.ts), so that request's own retry is recognised as the winner.
// It is a caller statement (lib/db.ts): the route runs it inside the API-key statement, so the digest is
// computed in SQL from the key the statement finds.
import { callerStatement, statement, type Sql } from "../db";
import { requestDigestSql } from "../idempotency/request-key";
import type { Scope } from "../scope";
import { CHECKED_PAYMENT_INTENT, type CheckedRow } from "./verify-payment";

/** What the redemption statement returns besides the PaymentIntent's own columns. */
export interface RedemptionOutcome {
  /** This statement's insert won. */
  inserted: boolean;
  /** The digest of this request (null without an Idempotency-Key). */
  digest: string | null;
  /** The digest of the request holding the row, as of the statement's snapshot (null when not visible yet). */
  prior_digest: string | null;
}

export type RedemptionRow = RedemptionOutcome & CheckedRow;

const DIGEST = requestDigestSql("caller.api_key_id", "$7");

/**
 * $1..$5 as CHECKED_PAYMENT_INTENT's (PaymentIntent, body merchantId, terms or NULLs), $6 new redemption id,
 * $7 Idempotency-Key. One row: NULL PaymentIntent columns when the caller has no such PaymentIntent in this mode.
 */
export const REDEEM = callerStatement<RedemptionRow>("paywall_redeem", 7, {
  ctes: `${CHECKED_PAYMENT_INTENT},
  ins AS (
    INSERT INTO paywall_redemptions (id, merchant_id, livemode, payment_intent_id, request_digest)
    SELECT $6, caller.merchant_id, caller.livemode, pi.id, ${DIGEST} FROM caller, pi WHERE pi."reasonCode" IS NULL
    ON CONFLICT (merchant_id, livemode, payment_intent_id) DO NOTHING
    RETURNING id
  )`,
  select: `SELECT pi.*, EXISTS (SELECT 1 FROM ins) AS inserted, ${DIGEST} AS digest,
         (SELECT r.request_digest FROM paywall_redemptions r
           WHERE r.merchant_id = caller.merchant_id AND r.livemode = caller.livemode AND r.payment_intent_id = $1) AS prior_digest
    FROM caller LEFT JOIN pi ON true`,
});

const PRIOR_DIGEST = statement(
  "paywall_redemption_digest",
  "SELECT request_digest FROM paywall_redemptions WHERE merchant_id = $1 AND livemode = $2 AND payment_intent_id = $3",
);

/**
 * Did this request redeem the PaymentIntent: its insert won, or it is a retry of the request that won
 * (same API key, same Idempotency-Key, e.g. after the first response was lost)?
 */
export async function wonRedemption(db: Sql, scope: Scope, paymentIntentId: string, outcome: RedemptionOutcome): Promise<boolean> {
  if (outcome.inserted) return true;
  if (outcome.digest === null) return false;
  // The winner may have committed after this statement's snapshot was taken (it raced us): read it now.
  const prior =
    outcome.prior_digest ??
    (await db.rows<{ request_digest: string | null }>(PRIOR_DIGEST, [scope.merchantId, scope.livemode, paymentIntentId]))[0]
      ?.request_digest;
  return prior === outcome.digest;
}
