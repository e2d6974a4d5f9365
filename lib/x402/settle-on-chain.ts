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
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import type { PendingSettlementStore } from "@x402/core/facilitator";
import { liveNetwork, type LiveNetwork } from "../chains/live-networks";
import { captureCheckout } from "../checkouts/capture-checkout";
import { recoverCrashedCharge } from "../checkouts/apply-outcomes";
import { lockCheckout } from "../checkouts/lock-checkout";
import { openCheckout } from "../checkouts/open-checkout";
import { getDb, transaction, type Db } from "../db";
import { env } from "../env";
import { UpstreamError } from "../errors";
import type { PaymentIntent } from "../generated/prisma/client";
import type { Scope } from "../scope";
import { sideTransaction } from "../side-pool";
import { lockSingleUse } from "../single-use";
import { privateKeyToAccount } from "viem/accounts";
import type { RefusedPayment, VerifiedPayment } from "./check-payment";
import { chainClient } from "./chain-client";
import { chainFacilitator, facilitatorKey } from "./chain-facilitator";
import {
  chargeKeyOf,
  claimKeyOf,
  insertClaim,
  readClaim,
  recordBroadcast,
  recordRefusal,
  releaseBroadcastLease,
  setClaimPaymentIntent,
  takeBroadcastLease,
  type ClaimKey,
} from "./chain-claims";
import { x402EvmRail } from "./evm-rail";
import { nonceUsed, type SaleOf } from "./settle-payment";

/** The payment as the payer sent it (the official scheme reads it whole). */
export interface SignedPayment {
  paymentPayload: unknown;
  paymentRequirements: unknown;
}

export interface ChainHooks {
  /** Test instrument: runs once the transaction's hash is recorded (fault injection: a crash right after broadcasting). */
  afterBroadcast?: () => void;
}

export type ChainSettlement =
  | { kind: "settled"; paymentIntentId: string; orderId: string; transaction: string; replayed: boolean }
  | { kind: "pending"; paymentIntentId: string | null; transaction: string }
  | { kind: "refused"; refusal: RefusedPayment; transaction: string };

export const SETTLEMENT_PENDING = "settlement_pending";

function settlementOf(pi: PaymentIntent): { transaction: string } {
  const recorded = pi.settlement as { transaction?: string } | null;
  return { transaction: recorded?.transaction ?? pi.railChargeId ?? "" };
}

/** The PaymentIntent's state as the x402 answer tells it. */
function outcomeOf(pi: PaymentIntent, payment: VerifiedPayment, transaction: string, replayed: boolean): ChainSettlement {
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
  return { kind: "settled", paymentIntentId: pi.id, orderId: pi.orderId, ...settlementOf(pi), replayed };
}

/** Step 1: the claim and the processing PaymentIntent, committed; null when the authorization was claimed already. */
async function claimAndOpen(merchant: Scope, payment: VerifiedPayment, sale: SaleOf, key: ClaimKey) {
  return transaction(async (tx) => {
    if (!(await lockSingleUse(tx, "x402", chargeKeyOf(key)))) return null; // being claimed right now
    if (!(await insertClaim(tx, key, merchant, payment.authorization.value))) return null;
    const description = payment.description || payment.resourceUrl || sale.name;
    const checkout = await openCheckout(
      tx,
      merchant,
      {
        amount: payment.cents,
        currency: "USD",
        items: sale.items?.length ? sale.items : [{ name: sale.name.slice(0, 256), quantity: 1, unitAmount: payment.cents }],
        description: description.slice(0, 1000),
        metadata: {
          x402_network: payment.networkName.slice(0, 500),
          x402_payer: payment.payer,
          x402_nonce: key.nonce,
          ...(payment.resourceUrl ? { x402_resource: payment.resourceUrl.slice(0, 500) } : {}),
        },
        expiresInSeconds: 300,
      },
      { source: sale.source ?? "x402", sale: { paidResourceId: sale.paidResourceId ?? null, payer: payment.payer } },
    );
    const order = await captureCheckout(
      tx,
      merchant,
      checkout.id,
      { paymentMethod: `x402:${key.network}:${payment.payer}` },
      { chargeKey: chargeKeyOf(key), verifiedPayment: true, rail: x402EvmRail },
    );
    await setClaimPaymentIntent(tx, key, order.paymentIntentId);
    await sale.inClaim?.(tx, order.paymentIntentId);
    return { paymentIntentId: order.paymentIntentId, checkoutId: checkout.id };
  });
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
async function applyChainAnswerOrWait(merchant: Scope, paymentIntentId: string): Promise<PaymentIntent> {
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

/** The claim as the official scheme's PendingSettlementStore: a retried settle resumes the recorded transaction. */
function claimStore(key: ClaimKey): PendingSettlementStore {
  return {
    get: async () => (await readClaim(getDb(), key))?.transactionHash ?? undefined,
    set: (_signature, hash) => recordBroadcast(getDb(), key, hash),
    delete: async () => {}, // the claim keeps its transaction: it is the service's record of the payment
  };
}

/** Every transaction of the facilitator account on one network is sent under one lock: no two processes take one nonce. */
function nonceLock(network: LiveNetwork) {
  const account = privateKeyToAccount(facilitatorKey()).address.toLowerCase();
  return <T>(send: () => Promise<T>): Promise<T> =>
    sideTransaction("chain-nonce", async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`x402-nonce:${account}:${network.caip2}`]);
      return send();
    });
}

/** Step 2: the official facilitator sends the authorization (this caller holds the lease); the chain's answer, as the x402 SettleResponse. */
async function broadcast(network: LiveNetwork, key: ClaimKey, signed: SignedPayment, hooks: ChainHooks) {
  const onBroadcast = async (hash: string) => {
    await recordBroadcast(getDb(), key, hash);
    hooks.afterBroadcast?.();
  };
  const facilitator = chainFacilitator(network, { send: nonceLock(network), onBroadcast }, claimStore(key));
  try {
    const answer = await facilitator.settle(signed.paymentPayload as PaymentPayload, signed.paymentRequirements as PaymentRequirements);
    if (!answer.success && !answer.transaction) await recordRefusal(getDb(), key, answer.errorReason ?? "invalid_payload");
    return answer;
  } catch (err) {
    // Nothing recorded as sent: give the lease back, so the same payment sent again is broadcast at once.
    const claim = await readClaim(getDb(), key);
    if (claim?.transactionHash) return { success: false, errorReason: SETTLEMENT_PENDING, transaction: claim.transactionHash };
    await releaseBroadcastLease(getDb(), key);
    const reason = err instanceof Error ? err.message.split("\n")[0] : "error";
    throw new UpstreamError(`The chain ${network.caip2} could not be reached to settle the payment (${reason}); nothing was sent.`);
  }
}

/** The official scheme's verification against the chain (balance, authorization state, simulation); null when valid. */
export async function verifyOnChain(payment: VerifiedPayment, signed: SignedPayment): Promise<RefusedPayment | null> {
  const network = networkOf(payment);
  let answer;
  try {
    answer = await chainFacilitator(network).verify(
      signed.paymentPayload as PaymentPayload,
      signed.paymentRequirements as PaymentRequirements,
    );
  } catch (err) {
    const reason = err instanceof Error ? err.message.split("\n")[0] : "error";
    throw new UpstreamError(`The chain ${network.caip2} could not be reached to verify the payment (${reason}); nothing was charged.`);
  }
  if (answer.isValid) return null;
  // The scheme reports some failed reads as a refusal (an unreachable node reads as a bad signature): a refusal
  // stands only if the chain answers.
  await chainClient(network)
    .getBlockNumber({ cacheTime: 0 })
    .catch((err: Error) => {
      throw new UpstreamError(
        `The chain ${network.caip2} could not be reached to verify the payment (${err.message.split("\n")[0]}); nothing was charged.`,
      );
    });
  const reason = answer.invalidReason ?? "invalid_payload";
  const message = answer.invalidMessage ?? `The chain refused the payment (${reason}); nothing was sent.`;
  return { ok: false, reason, message, networkName: payment.networkName, payer: payment.payer };
}

function networkOf(payment: VerifiedPayment): LiveNetwork {
  const network = liveNetwork(payment.network.caip2);
  if (!network) throw new UpstreamError(`Live x402 on ${payment.network.caip2} is not configured (X402_RPC_URLS); nothing was charged.`);
  return network;
}

/** One settlement's facts, passed along its steps. */
interface Attempt {
  merchant: Scope;
  payment: VerifiedPayment;
  network: LiveNetwork;
  key: ClaimKey;
  signed: SignedPayment;
  hooks: ChainHooks;
}

export async function settleOnChain(
  merchant: Scope,
  payment: VerifiedPayment,
  sale: SaleOf,
  signed: SignedPayment,
  hooks: ChainHooks = {},
): Promise<ChainSettlement> {
  const attempt: Attempt = { merchant, payment, network: networkOf(payment), key: claimKeyOf(payment), signed, hooks };
  if (await readClaim(getDb(), attempt.key)) return answerAgain(attempt);
  const refused = await verifyOnChain(payment, signed);
  if (refused) return { kind: "refused", refusal: refused, transaction: "" };
  const opened = await claimAndOpen(merchant, payment, sale, attempt.key);
  if (!opened) return answerAgain(attempt); // claimed by a concurrent request
  return sendAndApply(attempt, opened.paymentIntentId);
}

async function sendAndApply(
  { merchant, payment, network, key, signed, hooks }: Attempt,
  paymentIntentId: string,
): Promise<ChainSettlement> {
  const answer = await broadcast(network, key, signed, hooks);
  const pi = await applyChainAnswerOrWait(merchant, paymentIntentId);
  const outcome = outcomeOf(pi, payment, answer.transaction ?? "", false);
  if (outcome.kind === "refused" && !answer.success && answer.errorReason) {
    outcome.refusal.reason = answer.errorReason; // the official scheme's own reason
  }
  return outcome;
}

/** The authorization was claimed before: the first result, the settlement still pending, or its broadcast resumed. */
async function answerAgain(attempt: Attempt): Promise<ChainSettlement> {
  const { merchant, payment, key } = attempt;
  const claim = await readClaim(getDb(), key);
  if (!claim?.paymentIntentId) return { kind: "pending", paymentIntentId: null, transaction: "" }; // its claim is committing now
  if (claim.merchantId !== merchant.merchantId || claim.value !== payment.authorization.value)
    return { kind: "refused", refusal: nonceUsed(payment), transaction: "" };
  const pi = await getDb().paymentIntent.findUniqueOrThrow({ where: { id: claim.paymentIntentId } });
  if (pi.status === "processing" && !claim.transactionHash && !claim.refusalReason && (await takeBroadcastLease(getDb(), key)))
    return sendAndApply(attempt, pi.id);
  const now = pi.status === "processing" ? await applyChainAnswerOrWait(merchant, pi.id) : pi;
  if (now.capturedAt && now.capturedAt.getTime() < Date.now() - env.PAID_REPLAY_WINDOW_SECONDS * 1000)
    return { kind: "refused", refusal: nonceUsed(payment), transaction: claim.transactionHash ?? "" }; // answered again only within the window
  return outcomeOf(now, payment, claim.transactionHash ?? "", true);
}
