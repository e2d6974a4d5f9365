// The `x402-evm` rail (docs/x402.md "Going live"): live x402 money moved on chain by the payer's EIP-3009
// authorization (`exact`) or Permit2 witness transfer (`upto`, at the amount used), straight from the payer's wallet to the merchant's payout address. The service never holds it
// (custodial: false): the charge engine posts capture and payout together and nothing is refunded through it.
// The rail is chosen by the payment itself, whatever LIVE_RAIL says; lib/register-adapters.ts registers it.
//   - charge: the authorization was claimed in the caller's transaction (chain-claims.ts) and is broadcast
//     after it commits (settle-on-chain.ts), so the charge is `pending` until the chain has answered.
//   - retrieveCharge: the chain's answer. The token's authorizationState decides: used, the transaction that
//     used it (the recorded one, or the token's AuthorizationUsed log: a sender that died, or someone else
//     executing the public authorization) is captured once it has X402_CONFIRMATIONS, its Transfer from the
//     payer checked; not used, it stays pending while it could still execute (a transaction in flight, a
//     sender holding the lease, the chain's clock before validBefore), and is declined only after that.
import { PERMIT2_ADDRESS } from "@x402/evm";
import { getAddress, parseAbi, parseEventLogs, type Hex, type TransactionReceipt } from "viem";
import { liveNetwork, type LiveNetwork } from "../chains/live-networks";
import { getDb } from "../db";
import { env } from "../env";
import { ConflictError } from "../errors";
import { RailUnavailableError, type ChargeResult, type Rail } from "../rails/rail";
import { chainClient } from "./chain-client";
import { adoptTransaction, claimKeyFromChargeKey, readClaim, refuseSent, refuseUnsent, type Claim, type ClaimKey } from "./chain-claims";

export const X402_EVM_RAIL = "x402-evm";

const TOKEN_ABI = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
  "event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)",
]);

const PERMIT2_ABI = parseAbi(["function nonceBitmap(address owner, uint256 wordPos) view returns (uint256)"]);

/** How far back the log of a transaction nobody recorded is looked for. */
const LOG_LOOKBACK_BLOCKS = 10_000n;

/** Declines (the official scheme's reason where it has one). */
export const TRANSACTION_FAILED = "invalid_exact_evm_transaction_failed";
export const TRANSFER_EVENT_MISMATCH = "invalid_exact_evm_transfer_event_mismatch";
const SETTLEMENT_ABANDONED = "settlement_abandoned";
const AUTHORIZATION_CANCELED = "authorization_canceled";

async function chainAnswer(chargeKey: string): Promise<ChargeResult | null> {
  const key = claimKeyFromChargeKey(chargeKey);
  const claim = key && (await readClaim(getDb(), key));
  if (!key || !claim) return null;
  const chargeId = claim.transactionHash ?? chargeKey;
  if (claim.refusalReason) return { status: "declined", chargeId, reason: claim.refusalReason };
  const network = liveNetwork(claim.network);
  if (!network) throw new RailUnavailableError(`no JSON-RPC URL is configured for ${claim.network} (X402_RPC_URLS)`);
  const client = chainClient(network);

  const upto = claim.asset === PERMIT2_ADDRESS.toLowerCase(); // an `upto` authorization: a Permit2 nonce (settle-upto.ts)
  if (upto && (await permit2NonceUsed(network, claim))) return uptoSpent(network, key, claim, chargeId);
  if (!upto && (await authorizationUsed(network, claim))) {
    const recorded = claim.transactionHash ? await receiptOf(network, claim.transactionHash) : null;
    const receipt = recorded && usesAuthorization(recorded, claim) ? recorded : await receiptOfUser(network, key, claim);
    if (receipt === "canceled") {
      await refuseUnsent(getDb(), key, AUTHORIZATION_CANCELED);
      return { status: "declined", chargeId, reason: AUTHORIZATION_CANCELED };
    }
    return confirmedCapture(network, claim, receipt, claim.asset);
  }

  // Not used: it may still execute while a sender holds the lease, a transaction is in flight, or before validBefore.
  if (claim.leased) return { status: "pending", chargeId };
  const latest = await client.getBlock({ blockTag: "latest" });
  if (claim.validBefore !== null && latest.timestamp < claim.validBefore) return { status: "pending", chargeId };
  if (!claim.transactionHash) {
    if (await refuseUnsent(getDb(), key, SETTLEMENT_ABANDONED, true)) return { status: "declined", chargeId, reason: SETTLEMENT_ABANDONED };
    return chainAnswer(chargeKey); // taken over meanwhile: ask again
  }
  const receipt = await receiptOf(network, claim.transactionHash);
  const reason = receipt?.status === "reverted" ? TRANSACTION_FAILED : "transaction_dropped";
  await refuseSent(getDb(), key, reason);
  return { status: "declined", chargeId, reason };
}

/**
 * A Permit2 nonce spent: by the transaction recorded for it (the only one the service sends: the proxy's settle of the
 * amount used), captured once confirmed; else by the payer itself (Permit2's invalidateUnorderedNonces): nothing moved.
 */
async function uptoSpent(network: LiveNetwork, key: ClaimKey, claim: Claim, chargeId: string): Promise<ChargeResult> {
  const receipt = claim.transactionHash ? await receiptOf(network, claim.transactionHash) : null;
  if (receipt?.status !== "success") {
    await refuseSent(getDb(), key, AUTHORIZATION_CANCELED);
    return { status: "declined", chargeId, reason: AUTHORIZATION_CANCELED };
  }
  return confirmedCapture(network, claim, receipt, network.asset.toLowerCase());
}

/** The capture once the receipt has X402_CONFIRMATIONS; pending until then. */
async function confirmedCapture(network: LiveNetwork, claim: Claim, receipt: TransactionReceipt, token: string): Promise<ChargeResult> {
  const head = await chainClient(network).getBlockNumber({ cacheTime: 0 }); // viem caches it for a polling interval otherwise
  if (head - receipt.blockNumber + 1n < BigInt(env.X402_CONFIRMATIONS)) return { status: "pending", chargeId: receipt.transactionHash };
  return captured(claim, receipt, token);
}

/**
 * The capture of a transaction that used the authorization: where the token's Transfer of the claimed value from the
 * payer went (an `upto` claim's value is the amount settled, below the authorized maximum).
 */
function captured(claim: Claim, receipt: TransactionReceipt, token: string): ChargeResult {
  const hash = receipt.transactionHash;
  const transfer = parseEventLogs({ abi: TOKEN_ABI, eventName: "Transfer", logs: receipt.logs }).find(
    (log) => log.address.toLowerCase() === token && log.args.from.toLowerCase() === claim.payer && log.args.value === BigInt(claim.value),
  );
  if (!transfer) return { status: "declined", chargeId: hash, reason: TRANSFER_EVENT_MISMATCH };
  return {
    status: "succeeded",
    chargeId: hash,
    settlement: {
      network: claim.network,
      transaction: hash,
      blockNumber: Number(receipt.blockNumber),
      payer: getAddress(claim.payer),
      payTo: getAddress(transfer.args.to),
      asset: getAddress(token),
    },
  };
}

function usesAuthorization(receipt: TransactionReceipt, claim: Claim): boolean {
  return (
    receipt.status === "success" &&
    parseEventLogs({ abi: TOKEN_ABI, eventName: "AuthorizationUsed", logs: receipt.logs }).some(
      (log) =>
        log.address.toLowerCase() === claim.asset &&
        log.args.authorizer.toLowerCase() === claim.payer &&
        log.args.nonce.toLowerCase() === claim.nonce,
    )
  );
}

async function receiptOf(network: LiveNetwork, hash: Hex): Promise<TransactionReceipt | null> {
  return chainClient(network)
    .getTransactionReceipt({ hash })
    .catch((err: Error) => {
      if (err.name === "TransactionReceiptNotFoundError") return null;
      throw err;
    });
}

/** The receipt of the transaction the token's logs say used (or canceled) the authorization; adopted on the claim. */
async function receiptOfUser(network: LiveNetwork, key: ClaimKey, claim: Claim): Promise<TransactionReceipt | "canceled"> {
  const client = chainClient(network);
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const range = { fromBlock: head > LOG_LOOKBACK_BLOCKS ? head - LOG_LOOKBACK_BLOCKS : 0n, toBlock: head };
  const args = { authorizer: claim.payer as Hex, nonce: claim.nonce as Hex };
  const address = claim.asset as Hex;
  const [used] = await client.getContractEvents({ address, abi: TOKEN_ABI, eventName: "AuthorizationUsed", args, ...range });
  if (used) {
    await adoptTransaction(getDb(), key, used.transactionHash);
    const receipt = await receiptOf(network, used.transactionHash);
    if (receipt) return receipt;
  }
  const [canceled] = await client.getContractEvents({ address, abi: TOKEN_ABI, eventName: "AuthorizationCanceled", args, ...range });
  if (canceled) return "canceled";
  // Used, but by no transaction in reach: never guessed (it stays processing; the log says why each tick).
  throw new RailUnavailableError(
    `the transaction that used authorization ${claim.nonce} was not found in the last ${LOG_LOOKBACK_BLOCKS} blocks`,
  );
}

/** Whether Permit2's unordered nonce of the claim is spent (its bitmap: word nonce >> 8, bit nonce & 255). */
async function permit2NonceUsed(network: LiveNetwork, claim: Claim): Promise<boolean> {
  const nonce = BigInt(claim.nonce);
  const word = await chainClient(network).readContract({
    address: PERMIT2_ADDRESS,
    abi: PERMIT2_ABI,
    functionName: "nonceBitmap",
    args: [claim.payer as Hex, nonce >> 8n],
  });
  return ((word >> (nonce & 255n)) & 1n) === 1n;
}

async function authorizationUsed(network: LiveNetwork, claim: Claim): Promise<boolean> {
  return chainClient(network).readContract({
    address: claim.asset as Hex,
    abi: TOKEN_ABI,
    functionName: "authorizationState",
    args: [claim.payer as Hex, claim.nonce as Hex],
  });
}

export const x402EvmRail: Rail = {
  name: X402_EVM_RAIL,
  custodial: false,
  supportsPaymentMethod: (paymentMethod) => paymentMethod.startsWith("x402:"),
  // The claim committed with the PaymentIntent; the broadcast follows the commit (settle-on-chain.ts).
  charge: async (request) => ({ status: "pending", chargeId: request.key }),
  async retrieveCharge(key) {
    try {
      return await chainAnswer(key);
    } catch (err) {
      if (err instanceof RailUnavailableError) throw err;
      throw new RailUnavailableError(`the chain could not be read (${err instanceof Error ? err.message.split("\n")[0] : "error"})`);
    }
  },
  refund: async () => {
    throw new ConflictError("An on-chain x402 payment cannot be refunded through the service; the merchant refunds from its own wallet.", {
      reason: "non_custodial_payment",
    });
  },
};
