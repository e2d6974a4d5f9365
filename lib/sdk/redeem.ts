// The single-use redemption decision shared by the MCP and HTTP paywalls (SPEC.md 3.3):
// no proof -> gate; proof fails verification -> gate with reasonCode; proof verified and consumed for
// the first time -> run; proof already consumed -> already_redeemed. Verification comes before
// consumption, so a proof that does not fit is never burnt.
import { alreadyRedeemed, buildGate, proofPaymentIntentId, type AlreadyRedeemed, type PaywallGate } from "./paywall-terms";
import type { ResolvedPaywall } from "./paywall-options";

export type RedeemDecision =
  | { kind: "gate"; gate: PaywallGate }
  | { kind: "already_redeemed"; body: AlreadyRedeemed }
  | { kind: "run"; paymentIntentId: string };

/** `proof` is undefined when the caller presented none. */
export async function decideRedemption(paywall: ResolvedPaywall, proof: unknown): Promise<RedeemDecision> {
  const { backend, consumed, terms } = paywall;
  if (proof === undefined || proof === null) return { kind: "gate", gate: buildGate(terms, backend.payEndpoint) };
  const paymentIntentId = proofPaymentIntentId(proof);
  if (!paymentIntentId) return { kind: "gate", gate: buildGate(terms, backend.payEndpoint, "not_found") };

  const verdict = await backend.verify({
    paymentIntentId,
    merchantId: terms.merchantId,
    amount: terms.price,
    currency: terms.currency,
    sku: terms.sku,
  });
  if (!verdict.valid) return { kind: "gate", gate: buildGate(terms, backend.payEndpoint, verdict.reasonCode) };

  if (!(await consumed.consume(paymentIntentId))) return { kind: "already_redeemed", body: alreadyRedeemed(paymentIntentId) };
  return { kind: "run", paymentIntentId };
}
