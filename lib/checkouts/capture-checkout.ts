// Capture: charge the checkout's PaymentIntent through the mode's rail, by the charge engine
// (lib/payments/charge-payment.ts). The checkout row stays locked for the whole transaction, so concurrent
// captures of one checkout run one after another and only the first charges; the rest find it complete
// (409). A crashed earlier capture is recovered first; one whose rail answered `pending` (the PaymentIntent
// processing) is asked about again, and refused while still undecided.
import type { Db } from "../db";
import { DomainError, PaymentDeclinedError } from "../errors";
import type { Checkout, Order, PaymentIntent } from "../generated/prisma/client";
import { serializeOrder } from "../orders/serialize";
import { chargePayment } from "../payments/charge-payment";
import { guarded, railFor } from "../rails";
import type { Rail } from "../rails/rail";
import type { Scope } from "../scope";
import { enforceSpendingPolicy, releaseSpendingHold, type SpendingContext } from "../spending-policies/enforce";
import { appliedCharge, checkoutAsOwner, recoverCrashedCharge } from "./apply-outcomes";
import { refuseWhileProcessing } from "./closed-checkout-error";
import { checkCapturable } from "./check-capturable";
import { requireOpen } from "./closed-checkout-error";
import { lockCheckoutForCharge } from "./lock-checkout";
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
  /** The rail a verified payment names itself (live x402 on chain: `x402-evm`), instead of the mode's. */
  rail?: Rail;
  /**
   * A card-network agent whose signature was verified pays (docs/cards.md): only such a capture may pay a
   * checkout that requires a verified agent.
   */
  verifiedAgent?: boolean;
  /**
   * Who pays, when a spending agent may (docs/spending-policies.md): its policy is checked and its budgets counted
   * here, after the checkout is locked and before the rail is asked; a refusal rolls everything back.
   */
  spending?: SpendingContext;
  /** The payer passed 3-D Secure for this charge, as the caller verified (an ACP authentication_result, lib/acp/three-ds.ts). */
  authenticated?: boolean;
  /**
   * The checkout this very transaction opened, with a PaymentIntent id it made (openCheckoutRows, lib/x402's sale): no
   * other transaction can see it before the commit, so there is nothing to lock, no earlier attempt of its
   * PaymentIntent to recover, and its deadline is minutes away. One statement fewer than the lock's. With its order
   * too, the capture is planned from the rows and deferred (ApplyOptions.known), as it is from the rows the lock holds.
   */
  opened?: { checkout: Checkout; pi: PaymentIntent; order?: Order };
  /**
   * Given the PaymentIntent as the charge left it (its transition's row, or the predicted one), before the order is
   * read: x402's sale signs its receipt from it.
   */
  charged?: (pi: PaymentIntent) => void;
}

export async function captureCheckout(tx: Db, scope: Scope, id: string, input: CaptureCheckoutInput, hooks: CaptureHooks = {}) {
  const locked = hooks.opened ? { ...hooks.opened, pendingAttempt: false, overdue: false } : await lockCheckoutForCharge(tx, scope, id);
  const { pi, pendingAttempt } = locked;

  // The rows as this transaction opened them, or holds them locked, unchanged while no crashed charge is looked into:
  // the capture's transitions are planned from them and deferred to the transaction's next statement or its last
  // (ApplyOptions.known; a Prisma call of the caller's afterwards runs them first, lib/db.ts).
  const unchanged = hooks.opened !== undefined || (!pendingAttempt && pi.status !== "processing");
  const { checkout, recovered } = await recoverCrashedCharge(tx, locked.checkout, pi, pendingAttempt);
  if (recovered?.kind === "paid") return serializeOrder(recovered.order); // the crashed capture's charge stands
  if (recovered?.kind === "declined") throw new PaymentDeclinedError(recovered.reason);
  if (recovered?.kind === "processing") refuseWhileProcessing(checkout);

  requireOpen(checkout, locked.overdue);
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
    ? guarded(hooks.rail ?? railFor(scope.livemode), scope)
    : await checkCapturable(tx, scope.livemode, input, hooks.walletOwner ?? scope);

  const billing = { name: input.billingName, country: input.billingCountry };
  const owner = await checkoutAsOwner(tx, checkout, input.paymentMethod, billing, unchanged ? locked.order : undefined);
  const hold = hooks.spending
    ? await enforceSpendingPolicy(tx, hooks.spending, {
        merchantId: scope.merchantId,
        livemode: scope.livemode,
        amount: checkout.amount,
        currency: checkout.currency,
        checkoutId: checkout.id,
      })
    : null;
  const charged = await chargePayment(tx, pi, {
    ...owner,
    rail,
    paymentMethod: input.paymentMethod,
    chargeKey: hooks.chargeKey,
    afterRailCharge: hooks.afterRailCharge,
    authenticated: hooks.authenticated,
    known: unchanged,
  });
  hooks.charged?.(charged);
  const applied = await appliedCharge(tx, checkout, charged, owner.follower.order);
  if (applied.kind === "declined") {
    await releaseSpendingHold(tx, hold); // the decline commits; its budgets get the amount back
    throw new PaymentDeclinedError(applied.reason);
  }
  return serializeOrder(applied.order); // paid, or pending while the PaymentIntent is processing
}
