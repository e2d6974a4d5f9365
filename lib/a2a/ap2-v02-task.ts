// The merchant agent's AP2 v0.2 turns (docs/a2a.md "AP2 v0.2 over A2A"), as task states: the offer (input-required,
// the signed checkout as an `ap2.checkout` artifact) and the payment (completed with the receipts and the order, or
// failed with the Error receipts and nothing charged), or input-required again while the charge waits for the payer's
// approval (approval-wait.ts; the approval completes the task with the same artifacts, approval-outcome.ts). The
// work itself is ap2-v02-payment.ts.
import { TaskState, type Message, type Task } from "@a2a-js/sdk";
import type { CartTerms } from "../ap2/cart-mandate";
import { AP2_V02_KEYS, mandatesOf, offerCheckout, payInTask } from "./ap2-v02-payment";
import { awaitingApproval } from "./approval-wait";
import { agentMessage, dataOf, dataPart, textPart, TERMS_KEY, withStatus } from "./protocol";

type Parties = Parameters<typeof offerCheckout>[0];

export interface Ap2V02Terms {
  method: "ap2_v02";
  cart: CartTerms;
  checkoutId: string;
}

function artifact(artifactId: string, name: string, description: string, value: unknown) {
  return { artifactId, name, description, parts: [dataPart(value)], metadata: undefined, extensions: [] };
}

/** Input-required with the checkout the buyer's Checkout and Payment Mandates must bind to. */
export async function offerAp2V02(task: Task, parties: Parties, cart: CartTerms, summary: string): Promise<Task> {
  const checkout = await offerCheckout(parties, cart.items);
  const terms: Ap2V02Terms = { method: "ap2_v02", cart, checkoutId: checkout.id };
  return withStatus(
    task,
    TaskState.TASK_STATE_INPUT_REQUIRED,
    agentMessage(task, [
      textPart(
        `Here is your checkout, signed by ${parties.merchant.name}: ${summary}. Pay it with data parts ${AP2_V02_KEYS.checkoutMandate} and ${AP2_V02_KEYS.paymentMandate} bound to its nonce and aud.`,
      ),
    ]),
    {
      metadata: { ...task.metadata, [TERMS_KEY]: terms },
      artifacts: [
        artifact(`checkout-${checkout.id}`, "Checkout", "The checkout, signed by the merchant (AP2 v0.2).", {
          [AP2_V02_KEYS.checkout]: checkout,
        }),
      ],
    },
  );
}

/** The follow-up of an AP2 v0.2 task: its payment, or a reminder of what is awaited (null: no mandates sent). */
export async function settleAp2V02(task: Task, parties: Parties, terms: Ap2V02Terms, message: Message): Promise<Task | null> {
  const mandates = mandatesOf(dataOf(message));
  if (!mandates) return null;
  const result = await payInTask(parties, task.id, terms.checkoutId, mandates);
  if (!result.ok && result.pending) return awaitingApproval(task, result.pending);
  if (!result.ok) {
    const parts = [textPart(`Payment refused (${result.reason}): ${result.message}`)];
    const receipts = Object.keys(result.receipts).length ? [dataPart(result.receipts)] : [];
    return withStatus(task, TaskState.TASK_STATE_FAILED, agentMessage(task, [...parts, ...receipts]), {
      artifacts: receipts.length
        ? [...task.artifacts, artifact("receipts", "Receipts", "AP2 v0.2 receipts (status Error: nothing was charged).", result.receipts)]
        : task.artifacts,
    });
  }
  return ap2V02Completed(task, terms, result);
}

/** Completed: the receipts and the order, as artifacts and in the status message (also when an approval paid it). */
export function ap2V02Completed(
  task: Task,
  terms: Ap2V02Terms,
  result: { orderId: string; paymentIntentId: string; receipts: Record<string, string> },
): Task {
  const order = {
    orderId: result.orderId,
    paymentIntentId: result.paymentIntentId,
    amount: terms.cart.amount,
    currency: terms.cart.currency,
    items: terms.cart.items,
  };
  return withStatus(
    task,
    TaskState.TASK_STATE_COMPLETED,
    agentMessage(task, [textPart(`Payment completed. Order ${result.orderId}.`), dataPart(result.receipts)]),
    {
      artifacts: [
        ...task.artifacts,
        artifact("receipts", "Receipts", "AP2 v0.2 Checkout and Payment Receipts (JWTs) and the service's receipt.", result.receipts),
        artifact("order", "order", "The order this purchase made.", order),
      ],
    },
  );
}
