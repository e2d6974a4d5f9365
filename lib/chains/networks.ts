// The EVM chains this service knows by name, with their public USDC (the token x402 `exact` moves): Base
// Sepolia, where test mode settles offline, and Base. Live mode settles on the chains a deployment configures
// (live-networks.ts), these or others.

export interface EvmNetwork {
  /** CAIP-2 id (x402 v2). */
  caip2: string;
  /** The name x402 v1 uses for the same chain. */
  v1Name: string;
  chainId: number;
  /** The USDC contract (the EIP-712 verifyingContract) and its EIP-712 domain name and version. */
  asset: `0x${string}`;
  extra: { name: string; version: string };
}

export const BASE_SEPOLIA: EvmNetwork = {
  caip2: "eip155:84532",
  v1Name: "base-sepolia",
  chainId: 84532,
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  extra: { name: "USDC", version: "2" },
};

export const BASE_MAINNET: EvmNetwork = {
  caip2: "eip155:8453",
  v1Name: "base",
  chainId: 8453,
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  extra: { name: "USD Coin", version: "2" },
};
