// The chain's part of a live x402 settlement (settle-on-chain.ts), through the official facilitator
// (chain-facilitator.ts): its verification against the chain, and the one broadcast of a claimed authorization.
// The transaction is signed, recorded on the claim by the lease's holder (chain-claims.ts recordBeforeSending),
// and only then sent, under the facilitator account's nonce lock; what the scheme answers is read knowing whether
// anything was recorded, because the scheme answers a failed send as a plain refusal.
import type { PendingSettlementStore } from "@x402/core/facilitator";
import type { PaymentPayload, PaymentRequirements, SettleResponse } from "@x402/core/types";
import { privateKeyToAccount } from "viem/accounts";
import type { LiveNetwork } from "../chains/live-networks";
import { getDb } from "../db";
import { UpstreamError } from "../errors";
import { sideTransaction } from "../side-pool";
import type { RefusedPayment, VerifiedPayment } from "./check-payment";
import { chainClient } from "./chain-client";
import { adoptTransaction, readClaim, recordBeforeSending, refuseUnsent, releaseBroadcastLease, type ClaimKey } from "./chain-claims";
import { chainFacilitator, facilitatorKey } from "./chain-facilitator";

/** The payment as the payer sent it (the official scheme reads it whole). */
export interface SignedPayment {
  paymentPayload: unknown;
  paymentRequirements: unknown;
}

export interface ChainHooks {
  /** Test instrument: runs once the transaction was sent (fault injection: a crash right after broadcasting). */
  afterBroadcast?: () => void;
}

/** The scheme's refusal meaning the authorization was used on chain: by whom is the chain's to say, never recorded as a refusal. */
const NONCE_USED = "invalid_exact_evm_nonce_already_used";

function firstLine(err: unknown): string {
  return err instanceof Error ? err.message.split("\n")[0] : "error";
}

/** Throws when the chain does not answer: a refusal of the scheme stands only then (it reports failed reads as refusals). */
async function assertReachable(network: LiveNetwork, doing: string): Promise<void> {
  await chainClient(network)
    .getBlockNumber({ cacheTime: 0 })
    .catch((err: unknown) => {
      throw new UpstreamError(`The chain ${network.caip2} could not be reached to ${doing} (${firstLine(err)}); nothing was charged.`);
    });
}

/** The official scheme's verification against the chain (balance, authorization state, simulation); null when valid. */
export async function verifyOnChain(
  network: LiveNetwork,
  payment: Pick<VerifiedPayment, "networkName" | "payer">,
  signed: SignedPayment,
): Promise<RefusedPayment | null> {
  let answer;
  try {
    answer = await chainFacilitator(network).verify(
      signed.paymentPayload as PaymentPayload,
      signed.paymentRequirements as PaymentRequirements,
    );
  } catch (err) {
    throw new UpstreamError(
      `The chain ${network.caip2} could not be reached to verify the payment (${firstLine(err)}); nothing was charged.`,
    );
  }
  if (answer.isValid) return null;
  await assertReachable(network, "verify the payment");
  const reason = answer.invalidReason ?? "invalid_payload";
  const message = answer.invalidMessage ?? `The chain refused the payment (${reason}); nothing was sent.`;
  return { ok: false, reason, message, networkName: payment.networkName, payer: payment.payer };
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

/** The claim as the official scheme's PendingSettlementStore: its recorded transaction is the one to wait for. */
function claimStore(key: ClaimKey): PendingSettlementStore {
  return {
    get: async () => (await readClaim(getDb(), key))?.transactionHash ?? undefined,
    set: (_signature, hash) => adoptTransaction(getDb(), key, hash), // recorded before sending already
    delete: async () => {}, // the claim keeps its transaction: it is the service's record of the payment
  };
}

class LeaseLost extends Error {}

/**
 * Step 2 of a settlement: the official scheme sends the claimed authorization (the caller holds the lease,
 * `token`) and waits for its receipt. The scheme's answer, after the claim was brought up to date with it:
 * a refusal before anything was sent is recorded (nothing will be sent for it); a send that may have
 * happened is left to the chain's answer (step 3, or the tick). Throws UpstreamError when the chain could
 * not be reached and nothing was sent (the lease given back: the same payment sent again is tried again).
 */
export async function broadcast(
  network: LiveNetwork,
  key: ClaimKey,
  token: string,
  signed: SignedPayment,
  hooks: ChainHooks,
): Promise<SettleResponse> {
  let recorded = false;
  let leaseLost = false;
  const beforeBroadcast = async (hash: string) => {
    recorded = await recordBeforeSending(getDb(), key, token, hash);
    leaseLost = !recorded;
    if (leaseLost) throw new LeaseLost("the broadcast lease ran out; not sent");
  };
  const facilitator = chainFacilitator(
    network,
    { send: nonceLock(network), beforeBroadcast, afterBroadcast: () => hooks.afterBroadcast?.() },
    claimStore(key),
  );
  let answer: SettleResponse;
  try {
    answer = await facilitator.settle(signed.paymentPayload as PaymentPayload, signed.paymentRequirements as PaymentRequirements);
  } catch (err) {
    if (recorded) return pendingAnswer(key, signed);
    await releaseBroadcastLease(getDb(), key, token);
    throw new UpstreamError(`The chain ${network.caip2} could not be reached to settle the payment (${firstLine(err)}); nothing was sent.`);
  }
  if (answer.success || answer.transaction) return answer;
  if (recorded || leaseLost) return pendingAnswer(key, signed); // sent, or another holder's to send: the chain will say
  // Nothing was recorded, so nothing was sent: a refusal of the scheme, a lost lease, or a failed read or send.
  const reason = answer.errorReason ?? "invalid_payload";
  if (reason === NONCE_USED) return answer; // used on chain (perhaps by a sender that died): the chain says by whom
  try {
    await assertReachable(network, "settle the payment");
  } catch (err) {
    await releaseBroadcastLease(getDb(), key, token);
    throw err;
  }
  await refuseUnsent(getDb(), key, reason);
  return answer;
}

async function pendingAnswer(key: ClaimKey, signed: SignedPayment): Promise<SettleResponse> {
  const claim = await readClaim(getDb(), key);
  const payload = signed.paymentPayload as { accepted?: { network?: string } };
  return {
    success: false,
    errorReason: "settlement_pending",
    transaction: claim?.transactionHash ?? "",
    network: (payload.accepted?.network ?? key.network) as SettleResponse["network"],
  };
}
