// AP2 v0.2 inside an A2A task (docs/a2a.md "AP2 v0.2 over A2A"), with the data part keys of AP2 v0.2's reference
// agents (the AP2 repository's samples, common/constants.py; v0.2 publishes no A2A extension document): the agent
// answers a purchase with the merchant-signed checkout in an `ap2.checkout` data part (lib/ap2/v02/checkout.ts: its
// checkout_jwt, checkout_hash, nonce and aud are what the buyer's mandates bind to); the buyer pays with data parts
// `ap2.mandates.CheckoutMandateSdJwt` and `ap2.mandates.PaymentMandateSdJwt` (the two SD-JWT chains), which reach
// payCheckout (lib/ap2/v02/pay.ts) as POST /ap2/:merchantId/checkouts/:id/pay does. The payment and the task's claim
// (a2a_tasks.payment_intent_id, one payment per task) are one transaction. The answer carries AP2's signed Checkout
// and Payment Receipts (status Success, or Error with nothing charged) and the service's receipt. A charge above the
// token's approval threshold waits for the payer (approval-wait.ts): the request is tied to the task and the checkout
// in the same transaction, and the answer names it (pending).
import { getDb, transaction, type Db } from "../db";
import { DomainError, keepCommittedState } from "../errors";
import { createCheckout } from "../ap2/v02/checkout";
import { PayCheckoutBody, payCheckout } from "../ap2/v02/pay";
import type { Scope } from "../scope";
import { serviceReceiptOf } from "../receipts/service-receipt";
import { ApprovalPendingError } from "../shared-payment-tokens/await-approval";
import type { ApprovalRequestView } from "../approvals/schemas";
import { tieApprovalToTask } from "../ap2/approval-task";

export const AP2_V02_KEYS = {
  checkout: "ap2.checkout",
  checkoutMandate: "ap2.mandates.CheckoutMandateSdJwt",
  paymentMandate: "ap2.mandates.PaymentMandateSdJwt",
  checkoutReceipt: "ap2.CheckoutReceipt",
  paymentReceipt: "ap2.PaymentReceipt",
} as const;

interface Parties {
  /** The seller's agent scope (its merchant id, the buyer's mode). */
  scope: Scope;
  merchant: { id: string; name: string };
  /** The buyer: the API key's merchant, who owns the buyer key and the shared payment token. */
  buyerMerchantId: string;
}

const buyerScope = (p: Parties): Scope => ({ merchantId: p.buyerMerchantId, livemode: p.scope.livemode });

/** The checkout the buyer's mandates are to bind to (the `ap2.checkout` data part), priced from the catalog. */
export function offerCheckout(p: Parties, items: { productId: string; quantity: number }[]) {
  return transaction((tx) =>
    createCheckout(tx, p.merchant, buyerScope(p), {
      line_items: items.map((i) => ({ product_id: i.productId, quantity: i.quantity })),
    }),
  );
}

export type InTaskPayment =
  | { ok: true; paymentIntentId: string; orderId: string; receipts: Record<string, string> }
  | { ok: false; reason: string; message: string; receipts: Record<string, string>; pending?: ApprovalRequestView };

/** The two mandate chains of a message's data parts; null when the message carries neither. */
export function mandatesOf(data: Record<string, unknown>[]): { checkout_mandate: unknown; payment_mandate: unknown } | null {
  const find = (key: string) => data.find((d) => d[key] !== undefined)?.[key];
  const checkout = find(AP2_V02_KEYS.checkoutMandate);
  const payment = find(AP2_V02_KEYS.paymentMandate);
  return checkout === undefined && payment === undefined ? null : { checkout_mandate: checkout, payment_mandate: payment };
}

class TaskAlreadyPaid extends DomainError {
  constructor() {
    super("CONFLICT", "This task has been paid already; nothing was charged.", { reason: "task_already_paid" });
  }
}

async function claimTask(tx: Db, p: Parties, taskId: string, paymentIntentId: string): Promise<void> {
  const claimed = await tx.$executeRaw`
    UPDATE a2a_tasks SET payment_intent_id = ${paymentIntentId}, updated_at = now()
     WHERE id = ${taskId} AND merchant_id = ${p.scope.merchantId} AND payment_intent_id IS NULL`;
  if (claimed !== 1) throw new TaskAlreadyPaid();
}

function receiptsOf(details: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof details.checkout_receipt === "string") out[AP2_V02_KEYS.checkoutReceipt] = details.checkout_receipt;
  if (typeof details.payment_receipt === "string") out[AP2_V02_KEYS.paymentReceipt] = details.payment_receipt;
  return out;
}

/** Pays the task's checkout with the buyer's mandate chains; a refusal answers its reason and its error receipts. */
export async function payInTask(p: Parties, taskId: string, checkoutId: string, mandates: unknown): Promise<InTaskPayment> {
  const input = PayCheckoutBody.safeParse(mandates);
  if (!input.success)
    return {
      ok: false,
      reason: "invalid_mandate_parts",
      message: `Send both ${AP2_V02_KEYS.checkoutMandate} and ${AP2_V02_KEYS.paymentMandate}, each an SD-JWT mandate chain (a string).`,
      receipts: {},
    };
  try {
    const settled = await transaction((tx) =>
      keepCommittedState(async () => {
        const paid = await payCheckout(tx, buyerScope(p), p.merchant, checkoutId, input.data, {
          awaitApproval: {
            onPending: (inner, request, held) =>
              tieApprovalToTask(inner, request.id, taskId, { checkoutId: held.checkoutId, heldSpend: held.reservations }),
          },
        });
        await claimTask(tx, p, taskId, paid.payment_intent_id);
        return paid;
      }),
    );
    if (!settled.ok) throw settled.error;
    const paid = settled.value;
    const service = await serviceReceiptOf(getDb(), paid.payment_intent_id);
    return {
      ok: true,
      paymentIntentId: paid.payment_intent_id,
      orderId: paid.order_id!,
      receipts: { ...receiptsOf(paid), ...(service.serviceReceipt ? { serviceReceipt: service.serviceReceipt } : {}) },
    };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    if (err instanceof ApprovalPendingError)
      return { ok: false, reason: "approval_pending", message: err.message, receipts: {}, pending: err.request };
    const reason = typeof err.details.reason === "string" ? err.details.reason : err.code.toLowerCase();
    return { ok: false, reason, message: err.message, receipts: receiptsOf(err.details) };
  }
}
