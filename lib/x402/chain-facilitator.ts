// The official x402 facilitator (@x402/core's x402Facilitator with @x402/evm's `exact` schemes, v2 and v1, and its
// `upto` scheme, v2: Permit2 through the x402 upto proxy) for one live network, over the facilitator account (X402_FACILITATOR_PRIVATE_KEY). It verifies (signature, EOA or
// smart wallet, balance, authorization state, simulation) and settles (transferWithAuthorization, or the upto
// proxy's settle of the amount used, then the receipt); nothing of that is ours. Built per settlement, bound to the authorization's claim: its signer hooks
// record the broadcast and take the account's nonce lock, and its PendingSettlementStore is the claim's row, so
// a retried settle on any process reconciles with the transaction already sent instead of sending another.
import { x402Facilitator, type PendingSettlementStore } from "@x402/core/facilitator";
import type { Network } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/facilitator";
import { UptoEvmScheme } from "@x402/evm/upto/facilitator";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { LiveNetwork } from "../chains/live-networks";
import { env } from "../env";
import { facilitatorSigner, type SignerHooks } from "./chain-signer";

export function facilitatorKey(): Hex {
  const key = env.X402_FACILITATOR_PRIVATE_KEY;
  if (!key) throw new Error("X402_FACILITATOR_PRIVATE_KEY is not set"); // env.ts requires it with X402_RPC_URLS
  return key as Hex;
}

/** The facilitator account's address: the one a live `upto` authorization must name (witness.facilitator). */
export function facilitatorAddress(): `0x${string}` {
  return privateKeyToAccount(facilitatorKey()).address;
}

export function chainFacilitator(
  network: LiveNetwork,
  hooks: Omit<SignerHooks, "confirmations" | "confirmationTimeoutMs"> = {},
  pendingSettlementStore?: PendingSettlementStore,
): x402Facilitator {
  const signer = facilitatorSigner({ chainId: network.chainId, rpcUrl: network.rpcUrl }, facilitatorKey(), {
    ...hooks,
    confirmations: env.X402_CONFIRMATIONS,
    confirmationTimeoutMs: env.X402_CONFIRMATION_TIMEOUT_MS,
  });
  const facilitator = new x402Facilitator()
    .register(network.caip2 as Network, new ExactEvmScheme(signer, { pendingSettlementStore }))
    .register(network.caip2 as Network, new UptoEvmScheme(signer, { pendingSettlementStore }));
  if (network.v1Name) facilitator.registerV1(network.v1Name as Network, new ExactEvmSchemeV1(signer));
  return facilitator;
}
