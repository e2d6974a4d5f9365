// Capture: charge the checkout's PaymentIntent through the mode's rail. The checkout row stays locked for
// the whole transaction, so concurrent captures of one checkout run one after another and only the
// first charges; the rest find it complete (409). A crashed earlier capture is recovered first.
import type { Db } from "../db";
import { CircuitOpenError, DomainError, PaymentDeclinedError } from "../errors";
import { serializeOrder } from "../orders/serialize";
import { closeAttemptNotCharged, recordAttempt } from "../payments/charge-attempts";
import { guarded, RailCallFailedError, railFor } from "../rails";
import type { Scope } from "../scope";
import { applyChargeOutcome, recoverCrashedCharge } from "./apply-outcomes";
import { checkCapturable } from "./check-capturable";
import { requireOpen } from "./closed-checkout-error";
import { lockCheckout } from "./lock-checkout";
import type { CaptureCheckoutInput } from "./schemas";

export interface CaptureHooks {
  /** Test instrument: runs right after the rail charged, before anything is written (fault injection). */
  afterRailCharge?: () => void;
  /** Whose customers' wallets may pay (default: the checkout's merchant); see checkCapturable. */
  walletOwner?: Scope;
  /**
   * The rail's charge key, when the caller's own retry must find the same charge again (a shared payment
   * token's `<token>:<n>`): a retry after a crash that rolled this capture back charges under the same key.
   * Default: a fresh key per attempt.
   */
  chargeKey?: string;
  /**
   * The payment was verified by the caller before the capture (an x402 authorization, lib/x402): its method
   * (`x402:<network>:<payer>`) is not one a payer may name in the API, so the public method check is skipped;
   * the mode's rail still records the charge (and refunds it) under `chargeKey`.
   */
  verifiedPayment?: boolean;
  /**
   * A card-network agent whose signature was verified pays (docs/cards.md): only such a capture may pay a
   * checkout that requires a verified agent.
   */
  verifiedAgent?: boolean;
}

export async function captureCheckout(tx: Db, scope: Scope, id: string, input: CaptureCheckoutInput, hooks: CaptureHooks = {}) {
  const locked = await lockCheckout(tx, scope, id);
  const pi = await tx.paymentIntent.findUniqueOrThrow({ where: { id: locked.checkout.paymentIntentId } });

  const { checkout, recovered } = await recoverCrashedCharge(tx, locked.checkout, pi);
  if (recovered?.kind === "paid") return serializeOrder(recovered.order); // the crashed capture's charge stands
  if (recovered?.kind === "declined") throw new PaymentDeclinedError(recovered.reason);

  await requireOpen(tx, checkout, locked.overdue);
  if (checkout.requireVerifiedAgent && !hooks.verifiedAgent) {
    throw new DomainError(
      "FORBIDDEN",
      `Checkout ${checkout.id} can be paid only by a verified card-network agent (docs/cards.md); nothing was charged.`,
      {
        reason: "verified_agent_required",
      },
    );
  }

  const rail = hooks.verifiedPayment
    ? guarded(railFor(scope.livemode), scope)
    : await checkCapturable(tx, scope.livemode, input, hooks.walletOwner ?? scope);

  const attempt = await recordAttempt(pi.id, rail.name, input.paymentMethod, hooks.chargeKey);
  const outcome = await rail
    .charge({ key: attempt.chargeKey, amount: pi.amount, currency: pi.currency, paymentMethod: input.paymentMethod })
    .catch(async (err) => {
      // Certainly not charged: close the attempt now. Unknown (a time-out): leave it pending; the next
      // capture, cancel or expiry sweep asks the rail about its key before doing anything else.
      if (err instanceof CircuitOpenError || (err instanceof RailCallFailedError && err.notCharged))
        await closeAttemptNotCharged(attempt.id, "failed");
      throw err;
    });
  hooks.afterRailCharge?.();
  const billing = { name: input.billingName, country: input.billingCountry };
  const applied = await applyChargeOutcome(
    tx,
    checkout,
    { id: attempt.id, paymentMethod: input.paymentMethod, rail: rail.name, billing },
    outcome,
  );
  if (applied.kind === "declined") throw new PaymentDeclinedError(applied.reason);
  return serializeOrder(applied.order);
}
