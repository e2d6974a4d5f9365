// The single-use redemption decision shared by the MCP and HTTP paywalls (docs/sdk.md "Paywall (single-use), for MCP tools"):
// no proof -> gate; proof fails verification -> gate with reasonCode; proof verified and consumed for
// the first time -> run; proof already consumed -> already_redeemed. Verification comes before
// consumption, so a proof that does not fit is never burnt.
// When the backend and the consumed store are the same service under the same key (serviceBackend() and
// serviceConsumedStore()), both steps are ONE request: the service verifies and redeems in one statement,
// with the same reason codes. Any other store keeps verify, then consume. A payment refunded after its call failed
// (paywall-refund.ts) stays redeemed: already_redeemed, not the insufficient_amount its verification now reads.
import { alreadyRedeemed, buildGate, proofPaymentIntentId, type AlreadyRedeemed, type PaywallGate } from "./paywall-terms";
import type { ResolvedPaywall } from "./paywall-options";
import { oneRequestRedemption } from "./service-link";
import type { PaywallReasonCode } from "./types";

export type RedeemDecision =
  { kind: "gate"; gate: PaywallGate } | { kind: "already_redeemed"; body: AlreadyRedeemed } | { kind: "run"; paymentIntentId: string };

/** `proof` is undefined when the caller presented none. */
export async function decideRedemption(paywall: ResolvedPaywall, proof: unknown): Promise<RedeemDecision> {
  const { backend, consumed, terms } = paywall;
  if (proof === undefined || proof === null) return { kind: "gate", gate: buildGate(terms, backend.payEndpoint) };
  const paymentIntentId = proofPaymentIntentId(proof);
  if (!paymentIntentId) return { kind: "gate", gate: buildGate(terms, backend.payEndpoint, "not_found") };

  const params = { paymentIntentId, merchantId: terms.merchantId, amount: terms.price, currency: terms.currency, sku: terms.sku };
  const oneRequest = oneRequestRedemption(backend, consumed);
  if (oneRequest) {
    const outcome = await oneRequest(params);
    if (outcome.redeemed) return { kind: "run", paymentIntentId };
    if ("reasonCode" in outcome) return refused(paywall, paymentIntentId, outcome.reasonCode);
    return { kind: "already_redeemed", body: alreadyRedeemed(paymentIntentId) };
  }

  const verdict = await backend.verify(params);
  if (!verdict.valid) return refused(paywall, paymentIntentId, verdict.reasonCode);

  if (!(await consumed.consume(paymentIntentId))) return { kind: "already_redeemed", body: alreadyRedeemed(paymentIntentId) };
  return { kind: "run", paymentIntentId };
}

/**
 * A proof the verifier refuses gets the gate with its reason, except a payment this paywall refunded after its call
 * failed: redeemed, it reads as insufficient_amount now (nothing is left of it), and SPEC 3.3 answers already_redeemed.
 */
async function refused(paywall: ResolvedPaywall, paymentIntentId: string, reasonCode: PaywallReasonCode): Promise<RedeemDecision> {
  if (reasonCode === "insufficient_amount" && (await paywall.refunds.refundedAfterFailure(paymentIntentId)))
    return { kind: "already_redeemed", body: alreadyRedeemed(paymentIntentId) };
  return { kind: "gate", gate: buildGate(paywall.terms, paywall.backend.payEndpoint, reasonCode) };
}
