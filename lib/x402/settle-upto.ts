// Settling an x402 `upto` authorization of a hosted resource into the ledger, test mode (docs/x402.md, "Usage-priced
// resources"); the steps are the metered sale's (lib/paid-sale/sell-metered.ts):
// - hold: the authorization's row in x402_authorizations (its primary key: single use, as exact's), in its own
//   transaction under the single-use lock, before the merchant's server is asked; nothing charged. Permit2's nonces
//   are the owner's whatever the token, so the row's asset is Permit2's address: an EIP-3009 nonce never collides.
// - capture: an ordinary checkout of the settled amount (captureSale: PaymentIntent, order, ledger, events) under the
//   authorization's charge key, the row marked with its PaymentIntent and the amount it moved, in one transaction.
// - release: a hold that charged nothing (the forward failed, the usage was refused) is deleted: nothing moved.
// The facilitator's settle (a merchant's own server reporting the usage: facilitator-upto.ts) holds and captures in
// one transaction (settleUptoNow): its amount is known when it is called.
import { PERMIT2_ADDRESS } from "@x402/evm";
import { getDb, sqlIn, statement, transaction, type Db } from "../db";
import { AnswerPendingError } from "../errors";
import { createId } from "../ids";
import { ANSWER_LEASE_MS } from "../paid-resources/paid-answers";
import type { Hold } from "../paid-sale/sell-metered";
import type { Scope } from "../scope";
import { lockSingleUse } from "../single-use";
import { chargeKeyOf, readClaim, type ClaimKey } from "./chain-claims";
import type { RefusedPayment } from "./check-payment";
import { centsToAtomic } from "./networks";
import { replayedPayment } from "./replays";
import { captureSale, type SaleOf } from "./settle-payment";
import { UPTO_NONCE_USED, type VerifiedUpto } from "./upto";

const HOLD = statement(
  "x402_upto_hold",
  `INSERT INTO x402_authorizations (network, asset, payer, nonce, merchant_id, livemode, value, payload_hash, valid_before)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING nonce`,
);
/** A hold of the same payload still being answered (no PaymentIntent, not a zero settlement, within an answer's lease). */
const HELD_NOW = statement(
  "x402_upto_held_now",
  `SELECT 1 AS one FROM x402_authorizations
    WHERE network = $1 AND asset = $2 AND payer = $3 AND nonce = $4 AND payload_hash = $5
      AND payment_intent_id IS NULL AND value <> '0' AND created_at > now() - make_interval(secs => $6::float8)`,
);
const RELEASE = statement(
  "x402_upto_release",
  `DELETE FROM x402_authorizations WHERE network = $1 AND asset = $2 AND payer = $3 AND nonce = $4 AND payment_intent_id IS NULL`,
);
/** What the authorization moved: the settled amount (atomic units), and its PaymentIntent (none for a zero settlement). */
const SETTLED = statement(
  "x402_upto_settled",
  `UPDATE x402_authorizations SET value = $5, payment_intent_id = $6 WHERE network = $1 AND asset = $2 AND payer = $3 AND nonce = $4`,
);

export function uptoClaimKey(payment: VerifiedUpto): ClaimKey {
  return { network: payment.network.caip2, asset: PERMIT2_ADDRESS.toLowerCase(), payer: payment.payer.toLowerCase(), nonce: payment.nonce };
}

const keyOf = (key: ClaimKey) => [key.network, key.asset, key.payer, key.nonce];

function nonceUsed(payment: VerifiedUpto): RefusedPayment {
  const message = "This authorization (its Permit2 nonce) was already used; nothing was charged.";
  return { ok: false, reason: UPTO_NONCE_USED, message, networkName: payment.networkName, payer: payment.payer };
}

/** The authorization held for this sale, or refused as used; the same payload being answered right now: 503 answer_pending. */
export async function holdUpto(merchant: Scope, payment: VerifiedUpto, payloadHash: string): Promise<Hold | RefusedPayment> {
  const key = uptoClaimKey(payment);
  return transaction(async (tx) => {
    if (!(await lockSingleUse(tx, "x402", chargeKeyOf(key)))) throw new AnswerPendingError(null); // being held right now
    const max = centsToAtomic(payment.maxCents).toString();
    const params = [...keyOf(key), merchant.merchantId, merchant.livemode, max, payloadHash, payment.deadline];
    const inserted = await sqlIn(tx).rows<{ nonce: string }>(HOLD, params);
    if (inserted[0]) return { paymentIntentId: createId("paymentIntent"), payer: payment.payer };
    const inFlight = await sqlIn(tx).rows(HELD_NOW, [...keyOf(key), payloadHash, ANSWER_LEASE_MS() / 1000]);
    if (inFlight[0]) throw new AnswerPendingError(null); // its answer is being made: retried, never a 402
    return nonceUsed(payment);
  });
}

export async function releaseUpto(payment: VerifiedUpto): Promise<void> {
  await sqlIn(getDb()).count(RELEASE, keyOf(uptoClaimKey(payment)));
}

/** Zero units: nothing captured; the authorization stays spent. */
export async function settleUptoZero(payment: VerifiedUpto): Promise<void> {
  await sqlIn(getDb()).count(SETTLED, [...keyOf(uptoClaimKey(payment)), "0", null]);
}

/**
 * The settled amount (cents, at most the maximum: checked by the caller and here) captured as the hold's PaymentIntent,
 * with `inClaim` (the answer's lease) in the same transaction.
 */
export async function captureUpto(merchant: Scope, payment: VerifiedUpto, hold: Hold, cents: number, sale: SaleOf) {
  if (cents > payment.maxCents) throw new Error(`upto: ${cents} is above the authorized maximum ${payment.maxCents}`);
  const key = uptoClaimKey(payment);
  return transaction(async (tx) => {
    const captured = { ...payment, cents, authorization: { nonce: payment.nonce } };
    const order = await captureSale(tx, merchant, captured, sale, { chargeKey: chargeKeyOf(key), paymentIntentId: hold.paymentIntentId });
    await sqlIn(tx).count(SETTLED, [...keyOf(key), centsToAtomic(cents).toString(), order.paymentIntentId]);
    await sale.inClaim?.(tx, order.paymentIntentId);
    return { paymentIntentId: order.paymentIntentId, orderId: order.id };
  });
}

/** The facilitator's settle of an authorization: settled now or before (its first result), refused, or being settled elsewhere. */
export type UptoSettlement =
  | { kind: "settled"; paymentIntentId: string | null; amount: string; replayed: boolean; transaction?: string }
  | { kind: "refused"; refusal: RefusedPayment; transaction?: string }
  | { kind: "pending"; paymentIntentId: string | null; transaction: string }
  | { kind: "busy" };

/**
 * Held and captured at `cents` (at most the maximum: checked by the caller) in ONE transaction, under the single-use
 * lock: the PaymentIntent, order, ledger and the authorization's row commit together or not at all. Zero: the
 * authorization spent, nothing captured. Claimed before: its first result when it is this very payload, else used.
 */
export async function settleUptoNow(merchant: Scope, payment: VerifiedUpto, cents: number, payloadHash: string, sale: SaleOf) {
  if (cents > payment.maxCents) throw new Error(`upto: ${cents} is above the authorized maximum ${payment.maxCents}`);
  const key = uptoClaimKey(payment);
  return transaction(async (tx): Promise<UptoSettlement> => {
    if (!(await lockSingleUse(tx, "x402", chargeKeyOf(key)))) return { kind: "busy" };
    const value = centsToAtomic(cents).toString();
    const params = [...keyOf(key), merchant.merchantId, merchant.livemode, value, payloadHash, payment.deadline];
    const inserted = await sqlIn(tx).rows<{ nonce: string }>(HOLD, params);
    if (!inserted[0]) return (await uptoSettledBefore(tx, merchant, payment, payloadHash)) ?? { kind: "busy" }; // deleted since: again
    if (cents === 0) return { kind: "settled", paymentIntentId: null, amount: "0", replayed: false };
    const captured = { ...payment, cents, authorization: { nonce: payment.nonce } };
    const order = await captureSale(tx, merchant, captured, sale, { chargeKey: chargeKeyOf(key) });
    await sqlIn(tx).count(SETTLED, [...keyOf(key), value, order.paymentIntentId]);
    return { kind: "settled", paymentIntentId: order.paymentIntentId, amount: value, replayed: false };
  });
}

/**
 * The authorization's claim read for the facilitator: its first settlement when this merchant settled this very payload
 * with a PaymentIntent (nothing else: a hosted resource's sale, a zero settlement, another payload are "used"); null:
 * the authorization was never claimed.
 */
export async function uptoSettledBefore(
  db: Db,
  merchant: Scope,
  payment: VerifiedUpto,
  payloadHash: string,
): Promise<UptoSettlement | null> {
  const claim = await readClaim(db, uptoClaimKey(payment));
  if (!claim) return null; // never claimed
  const pi = await replayedPayment(db, claim, merchant, { payloadHash, paymentIdentifier: null, value: claim.value }, {});
  if (!pi || pi === "conflict" || pi.status === "failed") return { kind: "refused", refusal: nonceUsed(payment) };
  return { kind: "settled", paymentIntentId: pi.id, amount: claim.value, replayed: true };
}
