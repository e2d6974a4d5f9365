// Where a merchant can be paid over x402 in a mode (docs/x402.md): test mode, Base Sepolia at the merchant's
// derived address (no chain involved); live mode, every network this deployment settles on (X402_RPC_URLS,
// lib/chains/live-networks.ts) for which the merchant has set a payout address, at that address. A live network
// without one is not offered, so no payment can name a recipient the merchant did not choose.
import { getAddress, keccak256, toHex } from "viem";
import type { Db } from "../db";
import { BASE_SEPOLIA } from "./networks";
import { liveNetworks } from "./live-networks";

export interface PayableNetwork {
  /** CAIP-2 id (x402 v2). */
  caip2: string;
  /** The x402 v1 name of the chain, if v1 has one (v1 payments are taken only there). */
  v1Name: string | null;
  chainId: number;
  /** The token (USDC) and its EIP-712 domain. */
  asset: `0x${string}`;
  extra: { name: string; version: string };
  /** Where the merchant is paid on this network. */
  payTo: `0x${string}`;
}

export async function payableNetworks(db: Db, merchantId: string, livemode: boolean): Promise<PayableNetwork[]> {
  if (!livemode) return [{ ...BASE_SEPOLIA, payTo: payToAddress(merchantId, false) }];
  const configured = liveNetworks();
  if (configured.length === 0) return [];
  const rows = await db.$queryRaw<{ network: string; address: `0x${string}` }[]>`
    SELECT network, address FROM x402_payout_addresses WHERE merchant_id = ${merchantId} AND replaced_at IS NULL`;
  const payouts = new Map(rows.map((row) => [row.network, row.address]));
  return configured.flatMap((network) => {
    const payTo = payouts.get(network.caip2);
    if (!payTo) return [];
    const { caip2, v1Name, chainId, asset, extra } = network;
    return [{ caip2, v1Name, chainId, asset, extra, payTo }];
  });
}

/** The network a requirement names (a v2 CAIP-2 id, or a v1 name), if the merchant can be paid there. */
export function payableNetwork(networks: PayableNetwork[], name: string, version: 1 | 2): PayableNetwork | null {
  return networks.find((network) => (version === 2 ? network.caip2 : network.v1Name) === name) ?? null;
}

/**
 * The merchant's test-mode payTo address (live mode pays its payout addresses): deterministic per merchant, derived from the merchant id
 * (the last 20 bytes of keccak256("agent-payments/x402/pay-to/<test|live>/<merchantId>"), checksummed).
 * No chain is involved in test mode: the address only names the merchant as the recipient the payer signs for.
 */
export function payToAddress(merchantId: string, livemode: boolean): `0x${string}` {
  const key = `${livemode ? "live" : "test"}/${merchantId}`;
  let address = payToAddresses.get(key);
  if (!address) {
    const digest = keccak256(toHex(`agent-payments/x402/pay-to/${key}`));
    address = getAddress(`0x${digest.slice(-40)}`);
    if (payToAddresses.size >= MAX_PAY_TO_ADDRESSES) payToAddresses.clear();
    payToAddresses.set(key, address);
  }
  return address;
}

/** The addresses derived in this process (two hashes each, on every paid request otherwise), a bounded cache. */
const payToAddresses = new Map<string, `0x${string}`>();
const MAX_PAY_TO_ADDRESSES = 10_000;
