// Redeeming a shared payment token: the merchant turns the payer's token into a captured PaymentIntent, in
// ONE transaction with the token's row locked throughout. The payment is an ordinary checkout of the merchant
// (openCheckout) captured at once by captureCheckout with the token's method, so the ledger posting, the
// events and webhooks, and later refunds are the usual ones; nothing here moves money itself.
//
// - Single use: the first redemption holds the token's single-use lock and its row lock (in any process) until it
//   commits the token redeemed, in the same transaction as its capture; a redemption arriving meanwhile is answered
//   409 token_in_use at once (lockSingleUse, lib/single-use.ts: it never waits on a connection), and every later
//   one 410 token_redeemed.
// - A declined charge commits (PaymentIntent failed, 402) and leaves the token active: nothing moved.
// - A token whose charge waits for the payer's approval (lib/approvals) is held by that request: any other
//   redemption meanwhile, on any path and of any amount (one below the approval threshold too), is 409
//   approval_pending naming the request, nothing charged. Otherwise a smaller charge could spend the single-use
//   token while the person decides, and the request they approve could then never be paid. Read under the
//   token's locks, so a request committed by the redemption before is seen.
// - A token minted for any merchant is bound to the first merchant that tries it, a declined try included
//   (bindToMerchant); from then on it is that merchant's alone.
// - Crash safety: the rail's charge key is `<token>:<n>:<amount>`, n counting committed tries. A process that dies
//   after the rail charged rolls everything back, n included, so the retry charges under the SAME key and
//   the rail answers with the first charge instead of taking the money twice (charge-attempts.ts).
import { pendingRequestOfToken } from "../approvals/store";
import { captureCheckout } from "../checkouts/capture-checkout";
import { openCheckout, type CheckoutOrigin } from "../checkouts/open-checkout";
import type { Db } from "../db";
import { ConflictError, DomainError, ForbiddenError, GoneError } from "../errors";
import { getPaymentIntent } from "../checkouts/read-orders-and-payments";
import type { PaymentSource } from "../payment-sources";
import type { Scope } from "../scope";
import type { ApprovalRoute } from "../spending-policies/enforce";
import { lockToken } from "./lock-token";
import type { RedeemTokenInput } from "./schemas";
import { tokenStatus } from "./serialize";

export interface RedeemOptions {
  /** How the payment came: `spt` for the REST redemption; the protocol paths (mpp, acp, ap2) pass their own. */
  source?: PaymentSource;
  /** A sale of a hosted paid resource (MPP's /mpp/r/:id): recorded on the PaymentIntent as for any protocol. */
  sale?: CheckoutOrigin["sale"];
  /** Test instrument: runs right after the rail charged, before anything is written (fault injection). */
  afterRailCharge?: () => void;
  /** The ACP checkout session being completed (lib/acp): a token minted for one session pays only that one. */
  acpCheckoutSessionId?: string;
  /** The payer passed 3-D Secure for this charge (an ACP authentication_result, lib/acp/three-ds.ts). */
  authenticated?: boolean;
  /** Human approval (lib/approvals): whether a charge above the threshold may wait, or the approval it carries. */
  approval?: ApprovalRoute;
  /** The checkout a person approved (pending_approval, reopened by lib/approvals): charged instead of a new one. */
  approvedCheckoutId?: string;
  /**
   * The spending agent the credential carrying the token names (an AP2 mandate's buyer key): its policy applies as
   * if the token named it. A token naming another agent is refused (spending_agent_mismatch), nothing charged.
   */
  spendingAgentId?: string | null;
}

export async function redeemToken(tx: Db, merchant: Scope, id: string, input: RedeemTokenInput, options: RedeemOptions = {}) {
  const token = await lockToken(tx, id, merchant.livemode, { wait: false }); // the other mode's token: 404; in use: 409
  if ((await bindToMerchant(tx, id, token.merchantId, merchant.merchantId)) !== merchant.merchantId) {
    throw refusal(new ForbiddenError(`Shared payment token ${id} is for another merchant; nothing was charged.`), {
      reason: "merchant_mismatch",
    });
  }
  const status = tokenStatus(token);
  if (status !== "active") {
    const mine = token.redeemedByMerchantId === merchant.merchantId;
    throw refusal(new GoneError(`Shared payment token ${id} is ${status}; nothing was charged.`), {
      reason: `token_${status}`,
      ...(mine && token.paymentIntentId ? { paymentIntentId: token.paymentIntentId } : {}),
    });
  }
  if (!options.approvedCheckoutId) await refuseWhileAwaitingApproval(tx, id);
  if (token.acpCheckoutSessionId !== null && token.acpCheckoutSessionId !== options.acpCheckoutSessionId) {
    throw scopeRefusal(
      "checkout_session_mismatch",
      "checkoutSessionId",
      `the token's allowance is for ACP checkout session ${token.acpCheckoutSessionId}`,
    );
  }
  const currency = input.currency ?? token.currency;
  if (currency !== token.currency) {
    throw scopeRefusal("currency_mismatch", "currency", `the token is for ${token.currency}`);
  }
  const spendingAgentId = payingAgentOf(token.spendingAgentId, options.spendingAgentId ?? null);
  const checkout = options.approvedCheckoutId
    ? await tx.checkout.findUniqueOrThrow({ where: { id: options.approvedCheckoutId } })
    : await openCheckout(
        tx,
        merchant,
        { ...input, currency },
        { source: options.source ?? "spt", ...(options.sale ? { sale: options.sale } : {}) },
      );
  if (checkout.currency !== token.currency) throw scopeRefusal("currency_mismatch", "currency", `the token is for ${token.currency}`);
  if (checkout.amount > token.maxAmount) {
    throw scopeRefusal("amount_exceeds_max", "amount", `${checkout.amount} is more than the token's maxAmount ${token.maxAmount}`);
  }

  const n = token.chargeAttempts + 1;
  await tx.sharedPaymentToken.update({ where: { id }, data: { chargeAttempts: n, updatedAt: new Date() } });
  const order = await captureCheckout(
    tx,
    merchant,
    checkout.id,
    { paymentMethod: token.paymentMethod },
    {
      walletOwner: { merchantId: token.payerMerchantId, livemode: token.livemode },
      chargeKey: `${id}:${n}:${checkout.amount}`,
      afterRailCharge: options.afterRailCharge,
      authenticated: options.authenticated,
      // The token's spending agent: its policy is checked in this transaction, as the protocol that redeems it (docs/spending-policies.md).
      spending: spendingAgentId ? { spendingAgentId, protocol: options.source ?? "spt", approval: options.approval } : undefined,
    },
  ); // a decline throws 402 and commits (the token stays active)
  const now = new Date();
  await tx.sharedPaymentToken.update({
    where: { id },
    data: {
      status: "redeemed",
      redeemedAt: now,
      redeemedByMerchantId: merchant.merchantId,
      redeemedAmount: order.amount,
      paymentIntentId: order.paymentIntentId,
      updatedAt: now,
    },
  });
  return getPaymentIntent(tx, merchant, order.paymentIntentId);
}

/**
 * The merchant the token is for. One minted for any merchant is bound to the first that tries it, by an
 * atomic UPDATE ... WHERE merchant_id IS NULL in this transaction: a declined try commits (and keeps the
 * binding), a refusal before any charge rolls it back. Every other merchant is then refused as for a token
 * named for someone else, so a token that leaked cannot be tried merchant after merchant.
 */
async function bindToMerchant(tx: Db, id: string, boundTo: string | null, merchantId: string): Promise<string | null> {
  if (boundTo !== null) return boundTo;
  const bound = await tx.$executeRaw`
    UPDATE shared_payment_tokens SET merchant_id = ${merchantId}, updated_at = now() WHERE id = ${id} AND merchant_id IS NULL`;
  return bound === 1 ? merchantId : null;
}

/** 409 approval_pending when the token's charge waits for the payer's approval (an unexpired pending request). */
async function refuseWhileAwaitingApproval(tx: Db, id: string): Promise<void> {
  const waiting = await pendingRequestOfToken(tx, id);
  if (!waiting || waiting.expiresAt <= new Date()) return; // past its deadline it can no longer be approved
  throw new ConflictError(
    `Shared payment token ${id} waits for the payer's approval (${waiting.id}) until ${waiting.expiresAt.toISOString()}; it pays nothing else meanwhile, and nothing was charged.`,
    { reason: "approval_pending", approvalRequestId: waiting.id, expiresAt: waiting.expiresAt.toISOString() },
  );
}

/** The agent that pays: the token's, or the one its carrying credential names; two different ones are refused. */
function payingAgentOf(ofToken: string | null, ofCredential: string | null): string | null {
  if (ofToken && ofCredential && ofToken !== ofCredential)
    throw new DomainError(
      "PAYMENT_DECLINED",
      `The shared payment token is spending agent ${ofToken}'s, but the credential presenting it is spending agent ${ofCredential}'s; nothing was charged.`,
      { reason: "spending_agent_mismatch", spendingAgentId: ofCredential },
    );
  return ofToken ?? ofCredential;
}

function refusal(err: DomainError, details: Record<string, unknown>): DomainError {
  Object.assign(err.details, details);
  return err;
}

/** The charge does not fit the token's scope: 400 naming the field; nothing opened, nothing charged. */
function scopeRefusal(reason: string, path: string, message: string): DomainError {
  return new DomainError("VALIDATION_ERROR", `The charge does not fit the shared payment token: ${message}; nothing was charged.`, {
    reason,
    fields: [{ path, message }],
  });
}
