// The `x402-evm` rail (docs/x402.md "Going live"): live x402 money moved on chain by the payer's EIP-3009
// authorization, straight from the payer's wallet to the merchant's payout address. The service never holds it
// (custodial: false): the charge engine posts capture and payout together and nothing is refunded through it.
// The rail is chosen by the payment itself, whatever LIVE_RAIL says; lib/register-adapters.ts registers it.
//   - charge: the authorization was claimed in the caller's transaction (chain-claims.ts) and is broadcast
//     after it commits (settle-on-chain.ts), so the charge is `pending` until the chain has answered.
//   - retrieveCharge: the chain's answer for the claim: the receipt of its recorded transaction (captured with
//     X402_CONFIRMATIONS on top, the token's Transfer from the payer checked), else the token's own
//     authorizationState and AuthorizationUsed log (a transaction sent by a process that died before recording
//     it); a claim nothing was sent for once its lease ran out, a reverted or dropped transaction: declined.
import { getAddress, parseAbi, parseEventLogs, type Hex } from "viem";
import { liveNetwork, type LiveNetwork } from "../chains/live-networks";
import { getDb } from "../db";
import { env } from "../env";
import { ConflictError } from "../errors";
import { RailUnavailableError, type ChargeResult, type Rail } from "../rails/rail";
import { chainClient } from "./chain-client";
import { claimKeyFromChargeKey, readClaim, recordBroadcast, recordRefusal, type Claim } from "./chain-claims";

export const X402_EVM_RAIL = "x402-evm";

const TOKEN_ABI = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
]);

/** How far back the AuthorizationUsed log of a transaction nobody recorded is looked for. */
const LOG_LOOKBACK_BLOCKS = 10_000n;

/** Declines whose reason is the official scheme's (what the x402 answer names). */
export const TRANSACTION_FAILED = "invalid_exact_evm_transaction_failed";
export const TRANSFER_EVENT_MISMATCH = "invalid_exact_evm_transfer_event_mismatch";
export const SETTLEMENT_ABANDONED = "settlement_abandoned";
const TRANSACTION_DROPPED = "transaction_dropped";
const AUTHORIZATION_CANCELED = "authorization_canceled";

async function chainAnswer(chargeKey: string): Promise<ChargeResult | null> {
  const key = claimKeyFromChargeKey(chargeKey);
  const claim = key && (await readClaim(getDb(), key));
  if (!key || !claim) return null;
  const pending: ChargeResult = { status: "pending", chargeId: claim.transactionHash ?? chargeKey };
  const declined = (reason: string): ChargeResult => ({ status: "declined", chargeId: claim.transactionHash ?? chargeKey, reason });
  if (claim.refusalReason) return declined(claim.refusalReason);
  const network = liveNetwork(claim.network);
  if (!network) throw new RailUnavailableError(`no JSON-RPC URL is configured for ${claim.network} (X402_RPC_URLS)`);

  const hash = claim.transactionHash ?? (await unrecordedTransaction(network, claim));
  if (hash === "unused") {
    if (claim.leased) return pending; // being sent right now
    return (await recordRefusal(getDb(), key, SETTLEMENT_ABANDONED, true)) ? declined(SETTLEMENT_ABANDONED) : chainAnswer(chargeKey);
  }
  if (hash === "canceled") {
    await recordRefusal(getDb(), key, AUTHORIZATION_CANCELED);
    return declined(AUTHORIZATION_CANCELED);
  }
  if (!claim.transactionHash) await recordBroadcast(getDb(), key, hash);

  const client = chainClient(network);
  const receipt = await client.getTransactionReceipt({ hash }).catch((err: Error) => {
    if (err.name === "TransactionReceiptNotFoundError") return null;
    throw err;
  });
  if (!receipt) {
    const sent = await client.getTransaction({ hash }).catch((err: Error) => {
      if (err.name === "TransactionNotFoundError") return null;
      throw err;
    });
    if (sent) return { status: "pending", chargeId: hash }; // in the mempool
    if (await authorizationUsed(network, claim)) return { status: "pending", chargeId: hash }; // mined meanwhile
    await recordRefusal(getDb(), key, TRANSACTION_DROPPED);
    return { status: "declined", chargeId: hash, reason: TRANSACTION_DROPPED };
  }
  if (receipt.status !== "success") return { status: "declined", chargeId: hash, reason: TRANSACTION_FAILED };
  const head = await client.getBlockNumber({ cacheTime: 0 }); // viem caches it for a polling interval otherwise
  if (head - receipt.blockNumber + 1n < BigInt(env.X402_CONFIRMATIONS)) return { status: "pending", chargeId: hash };
  const transfer = parseEventLogs({ abi: TOKEN_ABI, eventName: "Transfer", logs: receipt.logs }).find(
    (log) =>
      log.address.toLowerCase() === claim.asset && log.args.from.toLowerCase() === claim.payer && log.args.value === BigInt(claim.value),
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
      asset: getAddress(claim.asset),
    },
  };
}

/** A claim without a recorded hash: the transaction that used its nonce (a sender that died before recording it), or why none. */
async function unrecordedTransaction(network: LiveNetwork, claim: Claim): Promise<Hex | "unused" | "canceled"> {
  if (!(await authorizationUsed(network, claim))) return "unused";
  const client = chainClient(network);
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const logs = await client.getContractEvents({
    address: claim.asset as Hex,
    abi: TOKEN_ABI,
    eventName: "AuthorizationUsed",
    args: { authorizer: claim.payer as Hex, nonce: claim.nonce as Hex },
    fromBlock: head > LOG_LOOKBACK_BLOCKS ? head - LOG_LOOKBACK_BLOCKS : 0n,
    toBlock: head,
  });
  return logs[0]?.transactionHash ?? "canceled"; // used without AuthorizationUsed: the payer canceled it
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
