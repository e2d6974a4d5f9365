// Paying an AP2 v0.2 checkout (docs/a2a.md "AP2 v0.2"): both mandate chains verified (the buyer's key, the agent's
// key binding to this merchant's audience and the checkout's nonce), their content checked against the checkout
// (constraints.ts), then in the request's ONE transaction: the checkout (and so its nonce) claimed once by an atomic
// UPDATE ... WHERE used_at IS NULL; an open payment mandate's budget and recurrence counted by the spend counter
// (lib/spend-limits); the shared payment token redeemed through redeemToken, the service's charge path (nothing
// here moves money). Any refusal rolls all of it back: nothing charged, nothing counted. A decline commits its
// failed PaymentIntent, so the counted spend is given back first. Success answers AP2's signed Checkout and
// Payment Receipts, whose `reference` is the hash of the closed mandate they answer; a refusal carries both with
// status "Error" (receipts.ts). Inside an A2A task (options.awaitApproval), a token whose spending agent's approval
// threshold is below the amount waits for the payer instead (docs/approvals.md "A2A and AP2"): ApprovalPendingError
// commits the request, the checkout's claim and the open mandate's counted spend, which stays HELD while it waits
// (the mandate was presented; a second presentation counts against what is left) and is named on the request
// (held_spend) so that a decline or the expiry gives it back (lib/a2a/approval-outcome.ts). The REST route does not
// wait: it refuses above the threshold (approval_required_not_available), as before.
import { z } from "zod";
import type { Db } from "../../db";
import { DomainError, NotFoundError } from "../../errors";
import { env } from "../../env";
import type { Scope } from "../../scope";
import { periodStartOf, releaseSpend, reserveSpend, type SpendReservation, type SpendWindow } from "../../spend-limits";
import { redeemToken } from "../../shared-payment-tokens/redeem-token";
import { ApprovalPendingError, redeemOrAwaitApproval } from "../../shared-payment-tokens/await-approval";
import { buyerKey } from "./buyer-keys";
import { ap2Audience } from "./checkout";
import { checkCheckoutMandate, checkPaymentMandate, type PaymentTerms } from "./constraints";
import { refusalWithReceipts, successReceipts } from "./receipts";
import { refused, verifyChain } from "./sd-jwt-chain";

export const PayCheckoutBody = z
  .object({
    /** The closed Checkout Mandate chain: <buyer-signed SD-JWT>~<agent-signed KB-SD-JWT>. */
    checkout_mandate: z.string().min(20).max(60_000),
    /** The closed Payment Mandate chain, the same way. */
    payment_mandate: z.string().min(20).max(60_000),
  })
  .strict();
export type PayCheckoutInput = z.output<typeof PayCheckoutBody>;

const WINDOW_OF: Record<string, SpendWindow> = {
  ON_DEMAND: "none",
  DAILY: "day",
  WEEKLY: "week",
  BIWEEKLY: "week",
  MONTHLY: "month",
  QUARTERLY: "quarter",
  ANNUALLY: "year",
};
const LIFETIME = new Date(0);

/** The counters an open payment mandate's charge takes: its budget and number of uses, and one per recurrence window. */
function reservationsOf(
  terms: PaymentTerms,
  openMandateId: string,
  amount: number,
  currency: string,
): (SpendReservation & { reason: string })[] {
  if (!terms.open) return [];
  const key = `ap2:open_payment_mandate:${openMandateId}`;
  // Without agent_recurrence an open mandate closes once (AP2: no second presentation without a rejection receipt).
  const maxUses = terms.recurrence ? (terms.recurrence.maxOccurrences ?? undefined) : 1;
  const out: (SpendReservation & { reason: string })[] = [
    {
      counterKey: `${key}:budget`,
      periodStart: LIFETIME,
      currency,
      amount,
      limit: terms.budget?.limit ?? Number.MAX_SAFE_INTEGER,
      maxUses,
      reason: "budget_exceeded",
    },
  ];
  const window = terms.recurrence ? WINDOW_OF[terms.recurrence.frequency] : undefined;
  if (terms.recurrence && !window)
    throw refused("unresolved_constraint", "unknown_frequency", `Unknown agent_recurrence frequency ${terms.recurrence.frequency}.`);
  if (window && window !== "none") {
    let start = periodStartOf(window);
    if (terms.recurrence!.frequency === "BIWEEKLY" && Math.floor(start.getTime() / (7 * 86_400_000)) % 2 === 1)
      start = new Date(start.getTime() - 7 * 86_400_000);
    out.push({ counterKey: `${key}:recurrence`, periodStart: start, currency: "*", amount: 1, limit: 1, reason: "recurrence_too_soon" });
  }
  return out;
}

export interface PayOptions {
  /** An A2A task pays: a charge above the approval threshold waits for the payer (ApprovalPendingError). */
  awaitApproval?: { onPending: (tx: Db, request: ApprovalPendingError["request"], held: HeldSpend) => Promise<void> };
}

/** What a waiting charge holds of the spend counters (released as reserveSpend's own decline path does). */
export type HeldSpend = {
  checkoutId: string;
  reservations: { counterKey: string; periodStart: string; currency: string; amount: number }[];
};

/**
 * Pays the checkout, or refuses with nothing charged and AP2's signed error receipts in the refusal's details
 * (receipts.ts).
 */
export async function payCheckout(
  tx: Db,
  buyer: Scope,
  merchant: { id: string; name: string },
  checkoutId: string,
  input: PayCheckoutInput,
  options: PayOptions = {},
) {
  try {
    return await payVerified(tx, buyer, merchant, checkoutId, input, options);
  } catch (err) {
    if (err instanceof ApprovalPendingError) throw err; // not a refusal: no Error receipts
    throw await refusalWithReceipts(tx, merchant.id, input, err);
  }
}

async function payVerified(
  tx: Db,
  buyer: Scope,
  merchant: { id: string; name: string },
  checkoutId: string,
  input: PayCheckoutInput,
  options: PayOptions,
) {
  const checkout = await tx.ap2Checkout.findFirst({
    where: { id: checkoutId, merchantId: merchant.id, livemode: buyer.livemode, buyerMerchantId: buyer.merchantId },
  });
  if (!checkout) throw new NotFoundError("AP2 checkout", checkoutId);
  // The buyer's key must be this payer's own, and not revoked. The spending agent it names pays (helper C, issue 37).
  let signerAgentId: string | null = null;
  const rootKey = async (kid: string) => {
    const key = await buyerKey(tx, buyer.livemode, kid);
    if (!key || key.payerMerchantId !== buyer.merchantId) return null;
    if (signerAgentId && key.spendingAgentId && key.spendingAgentId !== signerAgentId)
      throw refused("invalid_mandate", "spending_agent_mismatch", "The two mandates are signed by keys of different spending agents.");
    signerAgentId ??= key.spendingAgentId;
    if (key.revoked) throw refused("invalid_credential", "buyer_key_revoked", "The buyer key that signed these mandates has been revoked.");
    return key.jwk;
  };
  const expect = { rootKey, audience: ap2Audience(merchant.id), nonce: checkout.nonce };
  const checkoutChain = await verifyChain(input.checkout_mandate, { ...expect, label: "checkout_mandate" });
  const paymentChain = await verifyChain(input.payment_mandate, { ...expect, label: "payment_mandate" });
  const ctx = { checkout, merchant: { ...merchant, website: env.BASE_URL } };
  checkCheckoutMandate(checkoutChain.root, checkoutChain.closed, ctx);
  const terms = checkPaymentMandate(paymentChain.root, paymentChain.closed, { ...ctx, checkoutRootHash: checkoutChain.rootSdHash });

  const claimed = await tx.$executeRaw`
    UPDATE ap2_checkouts SET used_at = now(), checkout_mandate_ref = ${checkoutChain.reference},
           payment_mandate_ref = ${paymentChain.reference}, open_mandate_id = ${terms.open ? paymentChain.rootId : null}
     WHERE id = ${checkout.id} AND nonce = ${checkout.nonce} AND used_at IS NULL AND expires_at > now()`;
  if (claimed !== 1)
    throw refused(
      "invalid_mandate",
      "checkout_used_or_expired",
      `Checkout ${checkout.id} is paid already or has expired (its nonce is single-use).`,
    );

  const token = await tx.sharedPaymentToken.findFirst({
    where: { id: terms.token, livemode: buyer.livemode },
    select: { payerMerchantId: true },
  });
  if (!token || token.payerMerchantId !== buyer.merchantId)
    throw refused("invalid_mandate", "instrument_not_buyers", "The payment instrument is not a shared payment token of this buyer.");

  const reservations = reservationsOf(terms, paymentChain.rootId, checkout.amount, checkout.currency);
  for (const r of reservations) {
    const result = await reserveSpend(tx, r);
    if (!result.ok)
      throw new DomainError(
        "PAYMENT_DECLINED",
        r.reason === "budget_exceeded"
          ? `The open payment mandate's ${result.reason === "uses_exceeded" ? "occurrences are used up" : `budget would be exceeded (spent ${result.spent} of ${result.limit})`}. Nothing was charged.`
          : "The open payment mandate's recurrence allows no further charge in this period. Nothing was charged.",
        { reason: result.reason === "uses_exceeded" ? "occurrences_exceeded" : r.reason, ap2_error: "invalid_mandate" },
      );
  }

  const mandateRef = { ap2_checkout_id: checkout.id, ap2_mandate_reference: paymentChain.reference };
  let pi: Awaited<ReturnType<typeof redeemToken>>;
  const redeem = options.awaitApproval ? redeemOrAwaitApproval : redeemToken;
  try {
    pi = await redeem(
      tx,
      { merchantId: merchant.id, livemode: buyer.livemode },
      terms.token,
      {
        items: (checkout.items as { productId: string; quantity: number }[]).map(({ productId, quantity }) => ({ productId, quantity })),
        amount: checkout.amount,
        currency: checkout.currency,
        description: `AP2 checkout ${checkout.id}`,
        metadata: mandateRef,
      },
      { source: "ap2", spendingAgentId: signerAgentId },
    );
  } catch (err) {
    if (err instanceof ApprovalPendingError && options.awaitApproval) {
      const held = reservations.map((r) => ({
        counterKey: r.counterKey,
        periodStart: r.periodStart.toISOString(),
        currency: r.currency,
        amount: r.amount,
      }));
      await options.awaitApproval.onPending(tx, err.request, { checkoutId: checkout.id, reservations: held });
      throw err;
    }
    // A decline commits its failed PaymentIntent: give the counted spend back in the same transaction.
    if (err instanceof DomainError && err.commitsState) for (const r of reservations) await releaseSpend(tx, r);
    throw err;
  }
  await tx.$executeRaw`UPDATE ap2_checkouts SET payment_intent_id = ${pi.id} WHERE id = ${checkout.id}`;
  const receipts = await successReceipts(tx, merchant.id, { checkout: checkoutChain.reference, payment: paymentChain.reference }, pi);
  return {
    object: "ap2_payment" as const,
    checkout_id: checkout.id,
    payment_intent_id: pi.id,
    order_id: pi.orderId,
    amount: pi.amount,
    currency: pi.currency,
    mandate: {
      checkout_reference: checkoutChain.reference,
      payment_reference: paymentChain.reference,
      open_payment_mandate: terms.open ? paymentChain.rootId : null,
    },
    ...receipts,
  };
}
