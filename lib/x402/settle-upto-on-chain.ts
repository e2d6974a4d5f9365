// Live x402 `upto` settled on a real chain (docs/x402.md, "Usage-priced resources"), in settle-on-chain.ts's three
// steps, at the amount used (at most the authorized maximum: checked by the callers before anything is written):
//   1. ONE transaction: the authorization's row (x402_authorizations: a hosted resource's hold taken over, or
//      inserted now by the facilitator's settle) given the settled amount and the broadcast lease, with an ordinary
//      checkout captured through the `x402-evm` rail at that amount: pending, the PaymentIntent `processing`.
//   2. After it committed: the official upto scheme (chain-facilitator.ts) sends the proxy's settle of that amount,
//      its hash recorded on the row before it is sent (chain-broadcast.ts), and waits for the receipt.
//   3. The chain's answer applied by the charge engine (evm-rail.ts reads Permit2's nonce and the token's Transfer).
// Whatever stops between the steps, the PaymentIntent stays processing and the tick applies the chain's answer.
import { liveNetwork, type LiveNetwork } from "../chains/live-networks";
import { getDb, sqlIn, statement, transaction, type Db } from "../db";
import { UpstreamError } from "../errors";
import type { Hold } from "../paid-sale/sell-metered";
import type { Scope } from "../scope";
import { lockSingleUse } from "../single-use";
import { verifyOnChain } from "./chain-broadcast";
import { BROADCAST_LEASE_SECONDS, chargeKeyOf, newToken, readClaim, takeBroadcastLease, type ClaimKey } from "./chain-claims";
import type { RefusedPayment } from "./check-payment";
import { x402EvmRail } from "./evm-rail";
import { centsToAtomic } from "./networks";
import { replayedPayment } from "./replays";
import { applyChainAnswerOrWait, outcomeOf, sendAndApply, type ChainSettlement, type SignedPayment } from "./settle-on-chain";
import { captureSale, type SaleOf } from "./settle-payment";
import { uptoClaimKey } from "./settle-upto";
import { UPTO_NONCE_USED, type VerifiedUpto } from "./upto";

/** A live upto settlement's facts: `signed` names the settled amount in its requirements (what the scheme sends). */
export interface LiveUpto {
  merchant: Scope;
  payment: VerifiedUpto;
  cents: number;
  payloadHash: string;
  sale: SaleOf;
  signed: SignedPayment;
}

const LEASE = `broadcast_token = $7, broadcast_until = now() + make_interval(secs => ${BROADCAST_LEASE_SECONDS})`;
/** A hosted resource's hold (nothing charged, nothing sent) given the settled amount and the broadcast lease. */
const TAKE_HOLD = statement(
  "x402_upto_live_take_hold",
  `UPDATE x402_authorizations SET value = $5, payment_intent_id = $6, ${LEASE}
    WHERE network = $1 AND asset = $2 AND payer = $3 AND nonce = $4
      AND payment_intent_id IS NULL AND transaction_hash IS NULL AND refusal_reason IS NULL`,
);
/** The facilitator's settle: the authorization claimed at the settled amount with the lease (its PaymentIntent set after). */
const CLAIM = statement(
  "x402_upto_live_claim",
  `INSERT INTO x402_authorizations (network, asset, payer, nonce, merchant_id, livemode, broadcast_token, broadcast_until,
                                    value, payload_hash, valid_before)
   VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => ${BROADCAST_LEASE_SECONDS}), $8, $9, $10)
   ON CONFLICT DO NOTHING RETURNING nonce`,
);
const SET_PAYMENT_INTENT = statement(
  "x402_upto_live_paid",
  `UPDATE x402_authorizations SET payment_intent_id = $5 WHERE network = $1 AND asset = $2 AND payer = $3 AND nonce = $4`,
);

const keyOf = (key: ClaimKey) => [key.network, key.asset, key.payer, key.nonce];

function networkOf(payment: VerifiedUpto): LiveNetwork {
  const network = liveNetwork(payment.network.caip2);
  if (!network) throw new UpstreamError(`Live x402 on ${payment.network.caip2} is not configured (X402_RPC_URLS); nothing was charged.`);
  return network;
}

/** The official upto scheme's checks against the chain at the maximum (Permit2 allowance, balance, nonce, simulation); null when valid. */
export function verifyUptoOnChain(payment: VerifiedUpto, signed: SignedPayment): Promise<RefusedPayment | null> {
  return verifyOnChain(networkOf(payment), payment, signed);
}

/** The payment with its requirements at the authorized maximum: what the official scheme verifies. */
function atMaximum({ signed, payment }: LiveUpto): SignedPayment {
  const requirements = signed.paymentRequirements as Record<string, unknown>;
  return { ...signed, paymentRequirements: { ...requirements, amount: centsToAtomic(payment.maxCents).toString() } };
}

function broadcastOf(live: LiveUpto, key: ClaimKey) {
  return { merchant: live.merchant, network: networkOf(live.payment), key, signed: live.signed, hooks: {}, payment: live.payment };
}

/** The checkout of the settled amount through the x402-evm rail (pending), in the caller's transaction. */
async function openCharge(tx: Db, live: LiveUpto, key: ClaimKey, paymentIntentId?: string) {
  const captured = { ...live.payment, cents: live.cents, authorization: { nonce: live.payment.nonce } };
  const order = await captureSale(tx, live.merchant, captured, live.sale, {
    chargeKey: chargeKeyOf(key),
    rail: x402EvmRail,
    paymentIntentId,
  });
  await live.sale.inClaim?.(tx, order.paymentIntentId);
  return order.paymentIntentId;
}

/** A hosted resource's held authorization settled at `cents` (steps 1 to 3); its hold's PaymentIntent id is the charge's. */
export async function settleHeldUptoOnChain(live: LiveUpto, hold: Hold): Promise<ChainSettlement> {
  const key = uptoClaimKey(live.payment);
  const token = newToken();
  const value = centsToAtomic(live.cents).toString();
  const opened = await transaction(async (tx) => {
    const taken = await sqlIn(tx).count(TAKE_HOLD, [...keyOf(key), value, hold.paymentIntentId, token]);
    if (taken !== 1) throw new Error(`upto: the hold of ${chargeKeyOf(key)} is not this sale's to settle`);
    return openCharge(tx, live, key, hold.paymentIntentId);
  });
  return sendAndApply(broadcastOf(live, key), token, opened);
}

/**
 * The facilitator's settle of a live upto authorization at `cents`: verified against the chain, claimed and settled
 * now (steps 1 to 3); claimed before: the first result of this very payload (its broadcast resumed when nothing was
 * sent and nobody sends it), else refused as used; null: another request is claiming it right now.
 */
export async function settleUptoOnChain(live: LiveUpto): Promise<ChainSettlement | null> {
  const key = uptoClaimKey(live.payment);
  if (await readClaim(getDb(), key)) return answerAgain(live, key);
  const refused = await verifyUptoOnChain(live.payment, atMaximum(live));
  if (refused) return (await readClaim(getDb(), key)) ? answerAgain(live, key) : { kind: "refused", refusal: refused, transaction: "" };
  const token = newToken();
  const { merchant, payment } = live;
  const opened = await transaction(async (tx) => {
    if (!(await lockSingleUse(tx, "x402", chargeKeyOf(key)))) return null; // being claimed right now
    const params = [...keyOf(key), merchant.merchantId, merchant.livemode, token, centsToAtomic(live.cents).toString(), live.payloadHash];
    const inserted = await sqlIn(tx).rows<{ nonce: string }>(CLAIM, [...params, payment.deadline]);
    if (!inserted[0]) return "claimed";
    const paymentIntentId = await openCharge(tx, live, key);
    await sqlIn(tx).count(SET_PAYMENT_INTENT, [...keyOf(key), paymentIntentId]);
    return paymentIntentId;
  });
  if (opened === null) return null;
  if (opened === "claimed") return answerAgain(live, key);
  return sendAndApply(broadcastOf(live, key), token, opened);
}

/** The authorization was claimed: this merchant's very payload answered with its first result, anything else is used. */
async function answerAgain(live: LiveUpto, key: ClaimKey): Promise<ChainSettlement | null> {
  const { merchant, payment, payloadHash } = live;
  const claim = await readClaim(getDb(), key);
  if (!claim) return null; // released meanwhile: claimed again
  const pi = claim.paymentIntentId
    ? await replayedPayment(getDb(), claim, merchant, { payloadHash, paymentIdentifier: null, value: claim.value }, {})
    : null;
  if (!pi || pi === "conflict") {
    const message = "This authorization (its Permit2 nonce) was already used; nothing was charged.";
    return {
      kind: "refused",
      refusal: { ok: false, reason: UPTO_NONCE_USED, message, networkName: payment.networkName, payer: payment.payer },
      transaction: "",
    };
  }
  let now = pi.status === "processing" ? await applyChainAnswerOrWait(merchant, pi.id) : pi;
  if (now.status === "processing" && !claim.transactionHash && !claim.refusalReason) {
    const token = await takeBroadcastLease(getDb(), key); // nothing sent, nobody sending
    if (token) return sendAndApply(broadcastOf(live, key), token, pi.id);
    now = await getDb().paymentIntent.findUniqueOrThrow({ where: { id: pi.id } });
  }
  return outcomeOf(now, payment, claim.transactionHash ?? "", true);
}
