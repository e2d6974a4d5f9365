// What the service's x402 facilitator speaks (docs/x402.md): scheme `exact` (EIP-3009 TransferWithAuthorization
// of USDC), on Base Sepolia in test mode and Base in live mode (verified, but live settlement has no rail yet).
// Prices are integer minor units (USD cents); USDC has 6 decimals, so one cent is 10,000 atomic units.
import { getAddress, keccak256, toHex } from "viem";
import { BASE_MAINNET, BASE_SEPOLIA, type EvmNetwork } from "../chains/networks";

/** Test keys pay and settle on Base Sepolia; live keys verify on Base (settlement: 502, no on-chain rail yet). */
export function networkFor(livemode: boolean): EvmNetwork {
  return livemode ? BASE_MAINNET : BASE_SEPOLIA;
}

/** The network a requirement names, by its v2 (CAIP-2) or v1 name, if it is the mode's. */
export function modeNetwork(livemode: boolean, name: string, version: 1 | 2): EvmNetwork | null {
  const network = networkFor(livemode);
  return (version === 2 ? network.caip2 : network.v1Name) === name ? network : null;
}

export const SCHEME = "exact";
/** x402 requirements' maxTimeoutSeconds of the hosted resources (the authorization's validBefore window). */
export const MAX_TIMEOUT_SECONDS = 300;

/** Atomic USDC units per minor unit (cent): 10^6 per dollar / 100. */
export const ATOMIC_PER_CENT = 10_000n;

/** Minor units (cents) -> atomic USDC units, exact. */
export function centsToAtomic(cents: number): bigint {
  return BigInt(cents) * ATOMIC_PER_CENT;
}

/**
 * Atomic USDC units -> cents, only when exact: a value that is not a whole number of cents is refused
 * (null), never rounded, so what the payer signed is what the ledger records.
 */
export function atomicToCents(atomic: bigint): number | null {
  if (atomic <= 0n || atomic % ATOMIC_PER_CENT !== 0n) return null;
  const cents = atomic / ATOMIC_PER_CENT;
  return cents > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(cents);
}

/**
 * The merchant's payTo address: deterministic per merchant and mode, derived from the merchant id
 * (the last 20 bytes of keccak256("agent-payments/x402/pay-to/<test|live>/<merchantId>"), checksummed).
 * No chain is involved in test mode: the address only names the merchant as the recipient the payer signs for.
 */
export function payToAddress(merchantId: string, livemode: boolean): `0x${string}` {
  const digest = keccak256(toHex(`agent-payments/x402/pay-to/${livemode ? "live" : "test"}/${merchantId}`));
  return getAddress(`0x${digest.slice(-40)}`);
}
