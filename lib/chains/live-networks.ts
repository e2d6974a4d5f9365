// The chains live-mode x402 settles on (docs/x402.md, "Going live"): every network of X402_RPC_URLS, with its
// token: the public USDC of Base and Base Sepolia, or the X402_ASSETS entry (which any other chain needs, a
// local one included). Resolved once per process; a network that cannot be resolved stops the start
// (instrumentation.ts) with every problem named, never a payment later.
import { env } from "../env";
import { BASE_MAINNET, BASE_SEPOLIA, type EvmNetwork } from "./networks";

export interface LiveNetwork extends Omit<EvmNetwork, "v1Name"> {
  /** The x402 v1 name of the chain, when v1 has one (Base, Base Sepolia); v1 payments are not taken elsewhere. */
  v1Name: string | null;
  rpcUrl: string;
  /** The token's decimals (USDC: 6). */
  decimals: number;
}

interface LiveSettings {
  X402_RPC_URLS: Record<string, string>;
  X402_ASSETS: Record<string, { address: string; name: string; version: string; decimals: number }>;
}

/** Chains whose public USDC needs no X402_ASSETS entry. */
const PUBLIC_USDC = new Map([BASE_MAINNET, BASE_SEPOLIA].map((network) => [network.caip2, network]));
const USDC_DECIMALS = 6;

export function resolveLiveNetworks(settings: LiveSettings): LiveNetwork[] {
  const problems: string[] = [];
  for (const network of Object.keys(settings.X402_ASSETS)) {
    if (!(network in settings.X402_RPC_URLS)) problems.push(`X402_ASSETS names ${network}, which X402_RPC_URLS does not`);
  }
  const networks = Object.entries(settings.X402_RPC_URLS).flatMap(([caip2, rpcUrl]): LiveNetwork[] => {
    const chainId = Number(caip2.slice("eip155:".length));
    const asset = settings.X402_ASSETS[caip2];
    if (asset && asset.decimals !== USDC_DECIMALS) {
      problems.push(`X402_ASSETS ${caip2}: decimals ${asset.decimals}; x402 here settles USDC-like tokens of ${USDC_DECIMALS} decimals`);
      return [];
    }
    if (asset) {
      const address = asset.address as `0x${string}`;
      const known = PUBLIC_USDC.get(caip2);
      const extra = { name: asset.name, version: asset.version };
      return [{ caip2, chainId, rpcUrl, asset: address, extra, decimals: asset.decimals, v1Name: known?.v1Name ?? null }];
    }
    const known = PUBLIC_USDC.get(caip2);
    if (!known) {
      problems.push(`${caip2} has no public USDC this service knows: name its token in X402_ASSETS`);
      return [];
    }
    return [{ ...known, rpcUrl, decimals: USDC_DECIMALS }];
  });
  if (problems.length) throw new Error(`Invalid live x402 settings:\n  ${problems.join("\n  ")}`);
  return networks;
}

let resolved: LiveNetwork[] | undefined;

/** The live networks of this deployment, in the order X402_RPC_URLS lists them. */
export function liveNetworks(): LiveNetwork[] {
  resolved ??= resolveLiveNetworks(env);
  return resolved;
}

/** The live network a requirement names (its CAIP-2 id, or a v1 name), if this deployment settles on it. */
export function liveNetwork(name: string): LiveNetwork | null {
  return liveNetworks().find((network) => network.caip2 === name || network.v1Name === name) ?? null;
}
