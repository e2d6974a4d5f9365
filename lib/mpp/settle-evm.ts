// An `evm` credential (evm-charge.ts) verified and settled as the x402 payment its authorization is: mppx's own
// verification, then the service's offline x402 check (checkPayment: the merchant's network, token, address, whole
// cents, the signature), then settleVerifiedPayment, the one settlement of x402 payments: test mode in one
// transaction without a chain, live mode on chain (the write-ahead claim, the official facilitator's broadcast, the
// x402-evm rail's capture and payout). Its PaymentIntent says source "mpp". Nothing here moves money itself.
import type { PayableNetwork } from "../chains/payable-networks";
import type { Scope } from "../scope";
import { checkPayment, type VerifiedPayment } from "../x402/check-payment";
import { settleVerifiedPayment, type X402Settlement } from "../x402/settle";
import type { SaleOf } from "../x402/settle-payment";
import type { SignedPayment } from "../x402/settle-on-chain";
import { evmSignedPayment, validateEvmCredential, type EvmCredential, type EvmStep } from "./evm-charge";

export interface EvmPayment {
  verified: VerifiedPayment;
  signed: SignedPayment;
}

/**
 * The credential verified for `network` (the one its challenge names). `paidBefore`: it paid already (its answer is made
 * again): mppx's time checks are skipped, and its settlement can only answer its first one (the claim's payload hash).
 */
export async function verifyEvmPayment(
  merchant: Scope,
  credential: EvmCredential,
  network: PayableNetwork,
  networks: PayableNetwork[],
  { resourceId, paidBefore }: { resourceId: string | null; paidBefore: boolean },
): Promise<EvmStep<EvmPayment>> {
  if (!paidBefore) {
    const valid = await validateEvmCredential(credential, network);
    if (!valid.ok) return valid;
  }
  const signed = evmSignedPayment(credential, network, resourceId);
  const verified = await checkPayment({ livemode: merchant.livemode, networks, version: 2, ...signed, skipWindow: true, paidBefore });
  if (!verified.ok) return { ok: false, problem: "verification_failed", message: verified.message };
  return { ok: true, value: { verified, signed } };
}

/** The verified payment settled once into a captured PaymentIntent (source mpp); the same credential again: its first result. */
export function settleEvmPayment(merchant: Scope, { verified, signed }: EvmPayment, sale: Omit<SaleOf, "source">): Promise<X402Settlement> {
  return settleVerifiedPayment(merchant, verified, { ...sale, source: "mpp" }, signed);
}

/** A refusal of the settlement as the Payment scheme's problem kind (its authorization used: its challenge was). */
export function evmRefusalKind(reason: string): "invalid_challenge" | "verification_failed" {
  return reason === "invalid_exact_evm_nonce_already_used" ? "invalid_challenge" : "verification_failed";
}
