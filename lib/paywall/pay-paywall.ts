// POST /v1/paywall/pay: a payer pays a gate's terms (merchant, amount, currency, sku) with its OWN key,
// by a test payment method or one of its own customers' test wallets. The payment is a paywall checkout
// of the payee merchant, captured through the API's captureCheckout, so ledger, events and refunds apply.
//
// Two transactions, on purpose. The PaymentIntent is committed first, under the request key (a digest
// of the payer's key and Idempotency-Key, unique): a retry of the request finds that same PaymentIntent,
// and capturing it again recovers a charge a crashed attempt left behind (captureCheckout asks the rail
// about the pending attempt's key) instead of opening and charging a second PaymentIntent. Then the
// capture runs under the checkout's row lock, so two concurrent copies of one request charge once.
import type { z } from "zod";
import { cancelCheckout } from "../checkouts/cancel-checkout";
import { captureCheckout, type CaptureHooks } from "../checkouts/capture-checkout";
import { checkCapturable } from "../checkouts/check-capturable";
import { ClosedCheckoutError } from "../checkouts/closed-checkout-error";
import { transaction, type Db } from "../db";
import { keepCommittedState, PaymentDeclinedError, type DomainError } from "../errors";
import type { PaymentIntent } from "../generated/prisma/client";
import type { Caller, Scope } from "../scope";
import { spendingOfApiKey } from "../spending-policies/agents";
import { openPaywallCheckout } from "./open-paywall-checkout";
import { assertSameRequest, findOrOpenByRequestKey, requestDigest } from "../idempotency/request-key";
import type { PaymentIntentStatus } from "../payments/transitions";
import type { PayPaywallInput, PaywallPayResult } from "./schemas";

const CHARGED = new Set(["captured", "settled", "refunded"]);

export async function payPaywall(db: Db, payer: Caller, input: PayPaywallInput, idempotencyKey: string | null, hooks: CaptureHooks = {}) {
  const payee: Scope = { merchantId: input.merchantId, livemode: payer.livemode };
  const payerScope: Scope = { merchantId: payer.merchantId, livemode: payer.livemode };
  await checkCapturable(db, payer.livemode, input, payerScope); // before anything is opened

  const requestKey = requestDigest(payer.apiKeyId, idempotencyKey);
  const pi = await paymentIntentOfRequest(payee, payer, input, requestKey);
  if (CHARGED.has(pi.status)) return paywallPayment(pi); // a retry of a request that paid
  if (pi.status === "failed") throw new PaymentDeclinedError(pi.failureReason ?? "generic_decline"); // a retry of a decline

  let failure: DomainError | null;
  try {
    const settled = await transaction((tx) =>
      keepCommittedState(async () =>
        captureCheckout(
          tx,
          payee,
          pi.checkoutId!,
          { paymentMethod: input.paymentMethod, billingCountry: input.billingCountry },
          // The payer's key may name a spending agent (docs/spending-policies.md): its policy is checked at the capture.
          { ...hooks, walletOwner: payerScope, spending: await spendingOfApiKey(tx, payer.apiKeyId, "paywall") },
        ),
      ),
    );
    failure = settled.ok ? null : settled.error;
  } catch (err) {
    // Nothing was recorded (the rail failed, say). Without a request key no retry can come back to this
    // PaymentIntent: call it off (the cancel asks the rail about any pending attempt first).
    if (!requestKey) await transaction((tx) => cancelCheckout(tx, payee, pi.checkoutId!)).catch(() => undefined);
    throw err;
  }
  const after = await db.paymentIntent.findUniqueOrThrow({ where: { id: pi.id } });
  // A concurrent copy of this request (same key) captured it first: its payment is this request's answer.
  if (failure && !(failure instanceof ClosedCheckoutError && CHARGED.has(after.status))) throw failure;
  return paywallPayment(after);
}

/** The request's PaymentIntent: found again by its request key, or opened (and committed) now. */
async function paymentIntentOfRequest(
  payee: Scope,
  payer: Caller,
  input: PayPaywallInput,
  requestKey: string | null,
): Promise<PaymentIntent> {
  return transaction((tx) =>
    findOrOpenByRequestKey(tx, requestKey, {
      find: (key) => tx.paymentIntent.findUnique({ where: { payerRequestKey: key } }),
      again: (existing) => sameRequest(tx, existing, input),
      open: async () => {
        const checkout = await openPaywallCheckout(tx, payee, input, { payerMerchantId: payer.merchantId, payerRequestKey: requestKey });
        return tx.paymentIntent.findUniqueOrThrow({ where: { id: checkout.paymentIntentId } });
      },
    }),
  );
}

async function sameRequest(tx: Db, pi: PaymentIntent, input: PayPaywallInput): Promise<PaymentIntent> {
  assertSameRequest(
    pi.merchantId === input.merchantId &&
      pi.amount === input.amount &&
      pi.currency === input.currency &&
      pi.sku === input.sku &&
      (pi.paymentMethod === null || pi.paymentMethod === input.paymentMethod || (await paidWith(tx, pi, input.paymentMethod))),
  );
  return pi;
}

/** The payee's PaymentIntent hides a payer's own wallet (apply-outcomes.ts); the attempt keeps the real method. */
async function paidWith(tx: Db, pi: PaymentIntent, paymentMethod: string): Promise<boolean> {
  return (await tx.paymentAttempt.count({ where: { paymentIntentId: pi.id, paymentMethod } })) > 0;
}

function paywallPayment(pi: PaymentIntent) {
  return {
    object: "paywall_payment" as const,
    paymentIntentId: pi.id,
    status: pi.status as PaymentIntentStatus,
    merchantId: pi.merchantId,
    amount: pi.amount,
    currency: pi.currency,
    sku: pi.sku,
    livemode: pi.livemode,
  } satisfies z.input<typeof PaywallPayResult>;
}
