// What the service's x402 facilitator speaks (docs/x402.md): scheme `exact` (EIP-3009 TransferWithAuthorization
// of USDC), on Base Sepolia in test mode (no chain) and on the configured live networks in live mode
// (payable-networks.ts). Prices are integer minor units (USD cents); USDC has 6 decimals, so one cent is 10,000
// atomic units.

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
