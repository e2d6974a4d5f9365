// The facilitator account's gas (docs/x402.md "Going live"): below X402_FACILITATOR_MIN_BALANCE_WEI on a live
// network, live settlements there will soon fail to be sent. A warning in the log and on the dashboard, never a
// readiness failure (/ready stays about the database). Read at most once a minute per process, and never waited
// on for long: a node that does not answer is "unknown", not low.
import { formatEther, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { liveNetworks, type LiveNetwork } from "../chains/live-networks";
import { env } from "../env";
import { globalSingleton } from "../global-singleton";
import { chainClient } from "./chain-client";

export interface LowBalance {
  network: string;
  account: string;
  /** In ETH (the native currency), as text. */
  balance: string;
  threshold: string;
}

const CHECK_EVERY_MS = 60_000;
const READ_TIMEOUT_MS = 2_000;

/** The live networks on which `account` holds less than `thresholdWei` (a network that does not answer in time is left out). */
export async function lowBalances(networks: LiveNetwork[], account: Hex, thresholdWei: bigint): Promise<LowBalance[]> {
  const read = async (network: LiveNetwork) => {
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), READ_TIMEOUT_MS).unref());
    const balance = await Promise.race([
      chainClient(network)
        .getBalance({ address: account })
        .catch(() => null),
      timeout,
    ]);
    if (balance === null || balance >= thresholdWei) return [];
    return [{ network: network.caip2, account, balance: formatEther(balance), threshold: formatEther(thresholdWei) }];
  };
  return (await Promise.all(networks.map(read))).flat();
}

/** This deployment's low facilitator balances, read at most once a minute; each fresh read logs what is low. */
export function facilitatorLowBalances(): Promise<LowBalance[]> {
  const state = globalSingleton("x402.facilitatorBalance", () => ({ checkedAt: 0, last: Promise.resolve([] as LowBalance[]) }));
  const networks = liveNetworks();
  if (networks.length === 0 || !env.X402_FACILITATOR_PRIVATE_KEY) return Promise.resolve([]);
  if (Date.now() - state.checkedAt < CHECK_EVERY_MS) return state.last;
  state.checkedAt = Date.now();
  const account = privateKeyToAccount(env.X402_FACILITATOR_PRIVATE_KEY as Hex).address;
  state.last = lowBalances(networks, account, env.X402_FACILITATOR_MIN_BALANCE_WEI).then((low) => {
    for (const entry of low)
      console.warn(
        `[x402] the facilitator account ${entry.account} holds ${entry.balance} ETH on ${entry.network}, below ${entry.threshold}: top it up, or live settlements there will fail to be sent`,
      );
    return low;
  });
  return state.last;
}
