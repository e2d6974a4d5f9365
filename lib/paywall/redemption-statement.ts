// The one statement every redemption is: read the merchant's PaymentIntent, insert the redemption when
// it may be redeemed, and say who holds the row, atomically. The unique key (merchant, mode,
// PaymentIntent) lets exactly one insert win however many processes race; the row keeps a digest of the
// request that wrote it (lib/idempotency/request-key.ts), so that request's own retry is recognised as the winner.
import { statement, type Sql, type Statement } from "../db";

/** What every redemption statement returns besides the PaymentIntent's own columns. */
export interface RedemptionOutcome {
  /** This statement's insert won. */
  inserted: boolean;
  /** The digest of the request holding the row, as of the statement's snapshot (null when not visible yet). */
  prior_digest: string | null;
}

/**
 * $1 PaymentIntent, $2 merchant, $3 livemode, $4 new redemption id, $5 request digest; further
 * parameters are the caller's. `piColumns` are read from `payment_intents` (they must include `id`);
 * `insertWhen` is a condition on that row (e.g. its terms check passed). One row comes back, with NULL
 * PaymentIntent columns when the merchant has no such PaymentIntent in this mode.
 */
export function redemptionStatement(name: string, piColumns: string, insertWhen = "true"): Statement {
  return statement(
    name,
    `WITH pi AS (
       SELECT ${piColumns} FROM payment_intents WHERE id = $1 AND merchant_id = $2 AND livemode = $3
     ), ins AS (
       INSERT INTO paywall_redemptions (id, merchant_id, livemode, payment_intent_id, request_digest)
       SELECT $4, $2, $3, pi.id, $5 FROM pi WHERE ${insertWhen}
       ON CONFLICT (merchant_id, livemode, payment_intent_id) DO NOTHING
       RETURNING id
     )
     SELECT pi.*, EXISTS (SELECT 1 FROM ins) AS inserted,
            (SELECT request_digest FROM paywall_redemptions
              WHERE merchant_id = $2 AND livemode = $3 AND payment_intent_id = $1) AS prior_digest
       FROM (SELECT 1) AS one LEFT JOIN pi ON true`,
  );
}

const PRIOR_DIGEST = statement(
  "paywall_redemption_digest",
  "SELECT request_digest FROM paywall_redemptions WHERE merchant_id = $1 AND livemode = $2 AND payment_intent_id = $3",
);

/**
 * Did this request redeem the PaymentIntent: its insert won, or it is a retry of the request that won
 * (same API key, same Idempotency-Key, e.g. after the first response was lost)?
 */
export async function wonRedemption(
  db: Sql,
  scope: { merchantId: string; livemode: boolean },
  paymentIntentId: string,
  outcome: RedemptionOutcome,
  digest: string | null,
): Promise<boolean> {
  if (outcome.inserted) return true;
  if (digest === null) return false;
  // The winner may have committed after this statement's snapshot was taken (it raced us): read it now.
  const prior =
    outcome.prior_digest ??
    (await db.rows<{ request_digest: string | null }>(PRIOR_DIGEST, [scope.merchantId, scope.livemode, paymentIntentId]))[0]
      ?.request_digest;
  return prior === digest;
}
