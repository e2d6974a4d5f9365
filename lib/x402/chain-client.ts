// One viem public client per live network (its JSON-RPC URL), kept for the process: reads of the chain by the
// rail's reconciliation and the facilitator's balance check. No retries of its own: a failure is the caller's to report.
import { createPublicClient, defineChain, http, type PublicClient } from "viem";
import type { LiveNetwork } from "../chains/live-networks";
import { globalSingleton } from "../global-singleton";

export function chainClient(network: LiveNetwork): PublicClient {
  const clients = globalSingleton("x402.chainClients", () => new Map<string, PublicClient>());
  let client = clients.get(network.caip2);
  if (!client) {
    const chain = defineChain({
      id: network.chainId,
      name: network.caip2,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [network.rpcUrl] } },
    });
    client = createPublicClient({ chain, transport: http(network.rpcUrl, { retryCount: 0, timeout: 10_000 }) }) as PublicClient;
    clients.set(network.caip2, client);
  }
  return client;
}
