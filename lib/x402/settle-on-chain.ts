// Live x402 settled on a real chain (docs/x402.md "Going live"), exactly once on chain and in the ledger, in three
// steps, none of which waits on the chain inside a database transaction:
//   1. ONE transaction: the authorization claimed (chain-claims.ts; lockSingleUse first, then the unique row)
//      together with an ordinary checkout of the merchant captured through the `x402-evm` rail (evm-rail.ts),
//      whose charge is pending: the PaymentIntent is `processing`, the order pending.
//   2. After it committed: the official facilitator (chain-facilitator.ts) verifies against the chain and sends
//      transferWithAuthorization, the hash recorded on the claim as it is sent, and waits for the confirmations.
//   3. ONE transaction under the checkout's lock: the charge engine asks the rail for the chain's answer and
//      applies it (captured and paid out at once, or failed), with the order, the ledger and the events.
// Whatever stops between the steps (the wait outliving the request, a crash), the PaymentIntent stays
// `processing` and the tick's resolveProcessingPayments applies the chain's answer the same way (step 3).
// The same authorization sent again finds its claim: the first result (settled, or refused), or the settlement
// still pending; it is broadcast again only when nothing was sent and nobody holds the lease.
import { liveNetwork, type LiveNetwork } from "../chains/live-networks";
import { recoverCrashedCharge } from "../checkouts/apply-outcomes";
import { lockCheckout } from "../checkouts/lock-checkout";
import { getDb, transaction, type Db } from "../db";
import { UpstreamError } from "../errors";
import type { PaymentIntent } from "../generated/prisma/client";
import type { Scope } from "../scope";
import { lockSingleUse } from "../single-use";
import type { RefusedPayment, VerifiedPayment } from "./check-payment";
import { broadcast, verifyOnChain, type ChainHooks, type SignedPayment } from "./chain-broadcast";
import { chargeKeyOf, claimKeyOf, insertClaim, readClaim, setClaimPaymentIntent, takeBroadcastLease, type ClaimKey } from "./chain-claims";
import { x402EvmRail } from "./evm-rail";
import { facilitatorLowBalances } from "./facilitator-balance";
import { identifierConflict, identifierTaken, replayedPayment, type PaymentIdentity } from "./replays";
import { captureSale, nonceUsed, type SaleOf } from "./settle-payment";

export type { ChainHooks, SignedPayment } from "./chain-broadcast";

export type ChainSettlement =
  | { kind: "settled"; paymentIntentId: string; orderId: string; transaction: string; replayed: boolean }
  | { kind: "pending"; paymentIntentId: string | null; transaction: string }
  | { kind: "refused"; refusal: RefusedPayment; transaction: string };

export const SETTLEMENT_PENDING = "settlement_pending";

/** One settlement's facts, passed along its steps. */
interface Attempt {
  merchant: Scope;
  payment: VerifiedPayment;
  sale: SaleOf;
  network: LiveNetwork;
  key: ClaimKey;
  signed: SignedPayment;
  identity: PaymentIdentity;
  hooks: ChainHooks;
}

/** What a broadcast and its answer read of a settlement (an `exact` one, or an `upto` one: settle-upto-on-chain.ts). */
export type Broadcast = Pick<Attempt, "merchant" | "network" | "key" | "signed" | "hooks"> & {
  payment: Pick<VerifiedPayment, "networkName" | "payer">;
};

function networkOf(payment: VerifiedPayment): LiveNetwork {
  const network = liveNetwork(payment.network.caip2);
  if (!network) throw new UpstreamError(`Live x402 on ${payment.network.caip2} is not configured (X402_RPC_URLS); nothing was charged.`);
  return network;
}

/** The official scheme's checks against the chain, for /x402/verify. */
export function verifyPaymentOnChain(payment: VerifiedPayment, signed: SignedPayment): Promise<RefusedPayment | null> {
  return verifyOnChain(networkOf(payment), payment, signed);
}

export async function settleOnChain(
  merchant: Scope,
  payment: VerifiedPayment,
  sale: SaleOf,
  signed: SignedPayment,
  identity: PaymentIdentity,
  hooks: ChainHooks = {},
): Promise<ChainSettlement> {
  const network = networkOf(payment);
  const attempt: Attempt = { merchant, payment, sale, network, key: claimKeyOf(payment), signed, identity, hooks };
  if (await readClaim(getDb(), attempt.key)) return answerAgain(attempt);
  const refused = await verifyOnChain(network, payment, signed);
  // Refused as used on chain: perhaps by a concurrent request of the same payment that claimed it meanwhile.
  if (refused && (await readClaim(getDb(), attempt.key))) return answerAgain(attempt);
  if (refused) return { kind: "refused", refusal: refused, transaction: "" };
  const opened = await claimAndOpen(attempt);
  if (!opened) return answerAgain(attempt); // claimed by a concurrent request
  return sendAndApply(attempt, opened.token, opened.paymentIntentId);
}

/** Step 1: the claim (with the first broadcast lease) and the processing PaymentIntent, committed; null when claimed already. */
async function claimAndOpen({ merchant, payment, sale, key, identity }: Attempt) {
  return transaction(async (tx) => {
    if (!(await lockSingleUse(tx, "x402", chargeKeyOf(key)))) return null; // being claimed right now
    const token = await insertClaim(tx, key, merchant, payment, identity);
    if (!token) return null;
    const order = await captureSale(tx, merchant, payment, sale, { chargeKey: chargeKeyOf(key), rail: x402EvmRail });
    await setClaimPaymentIntent(tx, key, order.paymentIntentId);
    await sale.inClaim?.(tx, order.paymentIntentId);
    return { token, paymentIntentId: order.paymentIntentId };
  });
}

/**
 * Steps 2 and 3: the broadcast, then the chain's answer applied. A refusal before sending was recorded on the claim
 * (the rail declines with the scheme's reason); anything sent is what the chain says it became.
 */
export async function sendAndApply(attempt: Broadcast, token: string, paymentIntentId: string): Promise<ChainSettlement> {
  const answer = await broadcast(attempt.network, attempt.key, token, attempt.signed, attempt.hooks);
  void facilitatorLowBalances(); // the gas just spent: a warning when it runs low (at most once a minute)
  const pi = await applyChainAnswerOrWait(attempt.merchant, paymentIntentId);
  const transaction = answer.transaction || (await readClaim(getDb(), attempt.key))?.transactionHash || "";
  return outcomeOf(pi, attempt.payment, transaction, false);
}

/** Step 3: the chain's answer applied under the checkout's lock (the charge engine's recovery of a processing charge). */
async function applyChainAnswer(merchant: Scope, paymentIntentId: string): Promise<PaymentIntent> {
  return transaction(async (tx: Db) => {
    const seen = await tx.paymentIntent.findUniqueOrThrow({ where: { id: paymentIntentId } });
    if (seen.status !== "processing" || !seen.checkoutId) return seen;
    const { checkout } = await lockCheckout(tx, merchant, seen.checkoutId);
    const pi = await tx.paymentIntent.findUniqueOrThrow({ where: { id: paymentIntentId } });
    await recoverCrashedCharge(tx, checkout, pi);
    return tx.paymentIntent.findUniqueOrThrow({ where: { id: paymentIntentId } });
  });
}

/** Step 3, when the chain cannot be read right now: the PaymentIntent stays processing for the tick. */
export async function applyChainAnswerOrWait(merchant: Scope, paymentIntentId: string): Promise<PaymentIntent> {
  try {
    return await applyChainAnswer(merchant, paymentIntentId);
  } catch (err) {
    console.warn(
      `[x402] the chain's answer for ${paymentIntentId} could not be applied now (the tick retries):`,
      err instanceof Error ? err.message : err,
    );
    return getDb().paymentIntent.findUniqueOrThrow({ where: { id: paymentIntentId } });
  }
}

function settlementOf(pi: PaymentIntent): string | null {
  return (pi.settlement as { transaction?: string } | null)?.transaction ?? null;
}

/** The PaymentIntent's state as the x402 answer tells it. */
export function outcomeOf(
  pi: PaymentIntent,
  payment: Pick<VerifiedPayment, "networkName" | "payer">,
  transaction: string,
  replayed: boolean,
): ChainSettlement {
  if (pi.status === "processing") return { kind: "pending", paymentIntentId: pi.id, transaction };
  if (pi.status === "failed") {
    const reason = pi.failureReason ?? "invalid_exact_evm_transaction_failed";
    const message = `The chain did not settle the payment (${reason}); nothing was captured.`;
    return {
      kind: "refused",
      refusal: { ok: false, reason, message, networkName: payment.networkName, payer: payment.payer },
      transaction,
    };
  }
  if (!pi.orderId) throw new Error(`x402 PaymentIntent ${pi.id} has no order`);
  return { kind: "settled", paymentIntentId: pi.id, orderId: pi.orderId, transaction: settlementOf(pi) ?? transaction, replayed };
}

/**
 * The authorization was claimed before. Answered again only for the very payment (replays.ts: the same merchant,
 * mode, exact payload and sale, recently): the first result, the settlement still pending, or its broadcast
 * resumed when nothing was sent and the chain shows it unused.
 */
async function answerAgain(attempt: Attempt): Promise<ChainSettlement> {
  const { merchant, payment, sale, key, identity } = attempt;
  const claim = await readClaim(getDb(), key);
  if (!claim && (await identifierTaken(getDb(), merchant, identity.paymentIdentifier)))
    return { kind: "refused", refusal: identifierConflict(payment), transaction: "" };
  if (!claim?.paymentIntentId) return { kind: "pending", paymentIntentId: null, transaction: "" }; // its claim is committing now
  const pi = await replayedPayment(getDb(), claim, merchant, identity, sale);
  if (pi === "conflict") return { kind: "refused", refusal: identifierConflict(payment), transaction: "" };
  if (!pi) return { kind: "refused", refusal: nonceUsed(payment), transaction: "" };
  let now = pi.status === "processing" ? await applyChainAnswerOrWait(merchant, pi.id) : pi;
  if (now.status === "processing" && !claim.transactionHash && !claim.refusalReason) {
    const token = await takeBroadcastLease(getDb(), key); // unused on chain, nothing sent, nobody sending
    if (token) return sendAndApply(attempt, token, pi.id);
    now = await getDb().paymentIntent.findUniqueOrThrow({ where: { id: pi.id } });
  }
  return outcomeOf(now, payment, settlementOf(now) ?? claim.transactionHash ?? "", true);
}
