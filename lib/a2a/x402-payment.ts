// Payment inside an A2A task with the a2a-x402 extension (standalone flow, spec v0.2; docs/a2a.md). The terms are
// the x402 v2 PaymentRequired of the service's own facilitator (lib/x402: the networks the merchant is paid on, their
// USDC and payTo, whole cents); the buyer's PaymentPayload is checked and settled by the SAME functions as /x402
// (checkPayment, settleVerifiedPayment: on chain in live mode): nothing here moves money. One payment per task: the task's row takes the
// PaymentIntent id in the settling transaction (payment_intent_id IS NULL), so a second payment for a task
// already paid rolls back entirely.
import type { CartTerms } from "../ap2/cart-mandate";
import { getDb, sqlIn, statement, type Db } from "../db";
import type { Scope } from "../scope";
import { checkPayment } from "../x402/check-payment";
import { centsToAtomic, MAX_TIMEOUT_SECONDS, SCHEME } from "../x402/networks";
import { payableNetworks } from "../chains/payable-networks";
import { settleVerifiedPayment } from "../x402/settle";
import { POLICY_REASONS } from "../spending-policies/schemas";

// The task takes the PaymentIntent that paid it, once ($1 task, $2 merchant, $3 PaymentIntent).
const TASK_PAID = statement(
  "a2a_task_paid",
  "UPDATE a2a_tasks SET payment_intent_id = $3, updated_at = now() WHERE id = $1 AND merchant_id = $2 AND payment_intent_id IS NULL",
);

/** The x402 PaymentRequired of a cart: one requirement per network the merchant is paid on (empty: none in this mode). */
export async function paymentRequiredFor(scope: Scope, cart: CartTerms, resourceUrl: string) {
  const networks = await payableNetworks(getDb(), scope.merchantId, scope.livemode);
  const description = cart.items
    .map((item) => `${item.quantity} x ${item.name}`)
    .join(", ")
    .slice(0, 500);
  return {
    x402Version: 2,
    resource: { url: resourceUrl, description, mimeType: "application/json" },
    accepts: networks.map((network) => ({
      scheme: SCHEME,
      network: network.caip2,
      amount: centsToAtomic(cart.amount).toString(),
      asset: network.asset,
      payTo: network.payTo,
      maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
      extra: { ...network.extra },
    })),
  };
}

/** The a2a-x402 error codes (spec v0.2 section 9.1) for the x402 reasons checkPayment and settlePayment give. */
export function x402ErrorCode(reason: string): string {
  if ((POLICY_REASONS as readonly string[]).includes(reason)) return "SETTLEMENT_FAILED"; // the payer's spending policy refused
  if (reason === "insufficient_funds") return "INSUFFICIENT_FUNDS";
  if (reason.endsWith("nonce_already_used")) return "DUPLICATE_NONCE";
  if (reason.endsWith("valid_before") || reason.endsWith("valid_after")) return "EXPIRED_PAYMENT";
  if (reason === "invalid_network" || reason.endsWith("network_mismatch")) return "NETWORK_MISMATCH";
  if (reason.endsWith("authorization_value") || reason === "invalid_amount") return "INVALID_AMOUNT";
  if (reason === "settlement_failed" || reason === "task_already_paid" || reason === "settlement_pending") return "SETTLEMENT_FAILED";
  if (reason.endsWith("insufficient_balance")) return "INSUFFICIENT_FUNDS";
  return "INVALID_SIGNATURE";
}

export type InTaskSettlement =
  | { ok: true; receipt: { success: true; transaction: string; network: string; payer: string }; paymentIntentId: string; orderId: string }
  | {
      ok: false;
      code: string;
      reason: string;
      message: string;
      receipt: { success: false; errorReason: string; transaction: ""; network: string; payer?: string };
    };

class TaskAlreadyPaid extends Error {}

export async function settleInTask(
  scope: Scope,
  taskId: string,
  cart: CartTerms,
  required: Awaited<ReturnType<typeof paymentRequiredFor>>,
  paymentPayload: unknown,
): Promise<InTaskSettlement> {
  const chosen = (paymentPayload as { accepted?: { network?: unknown } } | null)?.accepted?.network;
  const requirements = required.accepts.find((accept) => accept.network === chosen) ?? required.accepts[0];
  const refuse = (reason: string, message: string, payer?: string): InTaskSettlement => ({
    ok: false,
    code: x402ErrorCode(reason),
    reason,
    message,
    receipt: { success: false, errorReason: reason, transaction: "", network: requirements.network, ...(payer ? { payer } : {}) },
  });
  const version = (paymentPayload as { x402Version?: unknown } | null)?.x402Version;
  if (version !== 2) return refuse("invalid_x402_version", "x402.payment.payload must be an x402 v2 PaymentPayload (x402Version 2).");
  const networks = await payableNetworks(getDb(), scope.merchantId, scope.livemode);
  const signed = { paymentPayload, paymentRequirements: requirements };
  // The time window is the settlement's (settle.ts), after a payment sent again got its first result.
  const payment = await checkPayment({ livemode: scope.livemode, networks, version: 2, skipWindow: true, ...signed });
  if (!payment.ok) return refuse(payment.reason, payment.message, payment.payer);
  if (payment.cents !== cart.amount)
    return refuse("invalid_amount", `The authorization moves ${payment.cents} cents; the cart is ${cart.amount}.`, payment.payer);
  try {
    const sale = {
      name: "A2A purchase",
      source: "a2a" as const,
      items: cart.items.map(({ productId, quantity }) => ({ productId, quantity })),
      // The task takes the PaymentIntent in the transaction that spends the authorization: one payment per task.
      async inClaim(tx: Db, paymentIntentId: string) {
        const claimed = await sqlIn(tx).count(TASK_PAID, [taskId, scope.merchantId, paymentIntentId]);
        if (claimed !== 1) throw new TaskAlreadyPaid();
      },
      // The same payment sent again (its settlement was pending) is answered for this task only.
      async paidBy(paymentIntentId: string) {
        const rows = await getDb().$queryRaw<{ one: number }[]>`
          SELECT 1 AS one FROM a2a_tasks WHERE id = ${taskId} AND merchant_id = ${scope.merchantId} AND payment_intent_id = ${paymentIntentId}`;
        return rows.length === 1;
      },
    };
    const settled = await settleVerifiedPayment(scope, payment, sale, signed);
    if (settled.kind === "refused") return refuse(settled.refusal.reason, settled.refusal.message, payment.payer);
    if (settled.kind === "pending")
      return refuse(
        "settlement_pending",
        `The payment is being settled on chain (transaction ${settled.transaction || "being sent"}); send the same payment again shortly for its outcome.`,
        payment.payer,
      );
    return {
      ok: true,
      receipt: { success: true, transaction: settled.transaction, network: payment.networkName, payer: payment.payer },
      paymentIntentId: settled.paymentIntentId,
      orderId: settled.orderId,
    };
  } catch (err) {
    if (err instanceof TaskAlreadyPaid)
      return refuse("task_already_paid", "This task has been paid already; nothing was charged.", payment.payer);
    const message = err instanceof Error ? err.message : "settlement failed";
    return refuse("settlement_failed", `Settlement failed: ${message.slice(0, 300)}`, payment.payer);
  }
}
