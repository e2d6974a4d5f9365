// An A2A task whose AP2 payment waited for the payer's approval (approval-wait.ts), when the request is decided
// (docs/approvals.md "A2A and AP2"). Registered with lib/approvals at startup (registerA2aApprovalHook, called by
// instrumentation.ts: lib/register-adapters.ts may not import lib/a2a, see there); runs in the deciding
// transaction, after the approval's capture (the charge engine: redeemToken -> captureCheckout, once). Approved:
// the task completes with the artifacts and receipts a paid task gets (AP2 v0.1 PaymentReceipt, or v0.2's signed
// Checkout and Payment Receipts; the service's receipt; the order), and the task, the mandate or checkout rows name
// the PaymentIntent. Declined, expired, or approved but the card declined (the request names no PaymentIntent): the
// task fails (nothing was charged; v0.2 answers signed Error receipts), and the open mandate's held spend is given back. Subscribers read the stored task (task-follow.ts); push
// notifications go out once the deciding transaction has committed (publishWhenCommitted).
import { Task, TaskState, taskStateToJSON } from "@a2a-js/sdk";
import { ServerCallContext } from "@a2a-js/sdk/server";
import { getDb, TRANSACTION_TIMEOUT_MS, type Db } from "../db";
import type { ApprovalRequest } from "../generated/prisma/client";
import { onApprovalDecided } from "../approvals/decided-hooks";
import { sha256B64url } from "../ap2/canonical";
import { errorReceiptsOfRefs, successReceipts } from "../ap2/v02/receipts";
import { serviceReceiptOf } from "../receipts/service-receipt";
import type { Scope } from "../scope";
import { releaseSpend } from "../spend-limits";
import { AP2_V02_KEYS } from "./ap2-v02-payment";
import { ap2V02Completed, type Ap2V02Terms } from "./ap2-v02-task";
import { APPROVAL_KEY } from "./approval-wait";
import { agentUrl } from "./card";
import { ap2V01Completed } from "./merchant-agent";
import { agentMessage, AP2_KEYS, dataPart, textPart, TERMS_KEY, withStatus } from "./protocol";
import { SignedPushNotificationSender } from "./push-sender";
import { PostgresPushNotificationStore } from "./push-store";
import { eventsBetween, taskSaved } from "./task-follow";

const TERMINAL = new Set(
  [TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED].map(
    taskStateToJSON,
  ),
);

interface TaskRow {
  task: unknown;
  state: string;
  owner: string;
  merchant_id: string;
  livemode: boolean;
}

/** Puts the hook into lib/approvals' table (instrumentation.ts, at startup, beside lib/register-adapters.ts). */
export function registerA2aApprovalHook(): void {
  onApprovalDecided("a2a", settleTaskOfApproval);
}

export async function settleTaskOfApproval(tx: Db, request: ApprovalRequest): Promise<void> {
  if (!request.a2aTaskId) return;
  const [row] = await tx.$queryRaw<TaskRow[]>`
    SELECT task, state, owner, merchant_id, livemode FROM a2a_tasks WHERE id = ${request.a2aTaskId} FOR UPDATE`;
  // Waiting (input-required), or briefly working while a follow-up message is answered: the row lock orders us, and
  // the store never overwrites the terminal state written here (task-store.ts).
  if (!row || TERMINAL.has(row.state)) return;
  // Not the task's metadata: the agent may not have stored its waiting status yet when a quick decision comes.
  const before = Task.fromJSON(row.task);

  const paid = request.status === "approved" && request.paymentIntentId ? request.paymentIntentId : null;
  const decided = paid ? await completed(tx, before, request, paid) : await ended(tx, before, request);
  const after: Task = {
    ...decided,
    history: decided.status?.message ? [...decided.history, decided.status.message] : decided.history,
    metadata: { ...decided.metadata, [APPROVAL_KEY]: { status: request.status, approvalRequestId: request.id } },
  };
  const state = taskStateToJSON(after.status!.state);
  await tx.$executeRaw`
    UPDATE a2a_tasks SET state = ${state}, task = ${JSON.stringify(Task.toJSON(after))}::jsonb,
           payment_intent_id = COALESCE(payment_intent_id, ${paid}), updated_at = now()
     WHERE id = ${request.a2aTaskId}`;
  publishWhenCommitted({ merchantId: row.merchant_id, livemode: row.livemode }, row.owner, before, after);
}

/** AP2 v0.1: the PaymentMandate as presented (kept on the mandate row), whose hash is the receipt's `reference`. */
async function v01Reference(tx: Db, request: ApprovalRequest): Promise<string> {
  const mandate = await tx.ap2Mandate.findFirst({
    where: { taskId: request.a2aTaskId!, tokenId: request.sharedPaymentTokenId },
    select: { paymentMandate: true },
  });
  return sha256B64url(mandate?.paymentMandate ?? null);
}

async function completed(tx: Db, task: Task, request: ApprovalRequest, paymentIntentId: string): Promise<Task> {
  const { orderId } = await tx.checkout.findUniqueOrThrow({ where: { id: request.checkoutId }, select: { orderId: true } });
  const order = orderId ?? "";
  if (request.ap2CheckoutId) {
    const [refs] = await tx.$queryRaw<{ checkout_mandate_ref: string | null; payment_mandate_ref: string | null }[]>`
      UPDATE ap2_checkouts SET payment_intent_id = ${paymentIntentId} WHERE id = ${request.ap2CheckoutId}
      RETURNING checkout_mandate_ref, payment_mandate_ref`;
    const signed = await successReceipts(
      tx,
      request.payeeMerchantId,
      { checkout: refs?.checkout_mandate_ref ?? "", payment: refs?.payment_mandate_ref ?? "" },
      { id: paymentIntentId, orderId },
    );
    const service = await serviceReceiptOf(tx, paymentIntentId);
    const receipts = {
      [AP2_V02_KEYS.checkoutReceipt]: signed.checkout_receipt,
      [AP2_V02_KEYS.paymentReceipt]: signed.payment_receipt,
      ...(service.serviceReceipt ? { serviceReceipt: service.serviceReceipt } : {}),
    };
    return ap2V02Completed(task, task.metadata?.[TERMS_KEY] as Ap2V02Terms, { orderId: order, paymentIntentId, receipts });
  }
  await tx.$executeRaw`
    UPDATE ap2_mandates SET payment_intent_id = ${paymentIntentId}, order_id = ${orderId}
     WHERE task_id = ${task.id} AND token_id = ${request.sharedPaymentTokenId}`;
  const reference = await v01Reference(tx, request);
  return ap2V01Completed(tx, task, agentUrl(request.payeeMerchantId), reference, { paymentIntentId, orderId: order });
}

async function ended(tx: Db, task: Task, request: ApprovalRequest): Promise<Task> {
  for (const held of (request.heldSpend ?? []) as unknown as {
    counterKey: string;
    periodStart: string;
    currency: string;
    amount: number;
  }[])
    await releaseSpend(tx, { ...held, periodStart: new Date(held.periodStart) });
  const { code, text } = await whyEnded(tx, request);
  const error = { code, description: text };
  let receipts: Record<string, unknown>;
  if (request.ap2CheckoutId) {
    const [refs] = await tx.$queryRaw<{ checkout_mandate_ref: string | null; payment_mandate_ref: string | null }[]>`
      SELECT checkout_mandate_ref, payment_mandate_ref FROM ap2_checkouts WHERE id = ${request.ap2CheckoutId}`;
    const signed = await errorReceiptsOfRefs(
      tx,
      request.payeeMerchantId,
      { checkout: refs?.checkout_mandate_ref ?? "", payment: refs?.payment_mandate_ref ?? "" },
      error,
    );
    receipts = { [AP2_V02_KEYS.checkoutReceipt]: signed.checkout_receipt, [AP2_V02_KEYS.paymentReceipt]: signed.payment_receipt };
  } else {
    const url = agentUrl(request.payeeMerchantId);
    const iat = Math.floor(Date.now() / 1000);
    receipts = {
      [AP2_KEYS.paymentReceipt]: {
        status: "Error",
        iss: url,
        iat,
        reference: await v01Reference(tx, request),
        payment_id: "",
        error: code,
        error_description: text,
      },
    };
  }
  return withStatus(task, TaskState.TASK_STATE_FAILED, agentMessage(task, [textPart(text), dataPart(receipts)]), {
    artifacts: [
      ...task.artifacts,
      {
        artifactId: "receipts",
        name: "Receipts",
        description: "AP2 receipts (status Error: nothing was charged).",
        parts: [dataPart(receipts)],
        metadata: undefined,
        extensions: [],
      },
    ],
  });
}

/** The Error receipts' code and the task's message: the payer said no, did not answer, or said yes to a card that declined. */
async function whyEnded(tx: Db, request: ApprovalRequest): Promise<{ code: string; text: string }> {
  if (request.status === "declined")
    return { code: "approval_declined", text: `The payer declined the payment (${request.id}); nothing was charged.` };
  if (request.status !== "approved")
    return { code: "approval_expired", text: `The payer's approval (${request.id}) expired undecided; nothing was charged.` };
  const [failed] = await tx.$queryRaw<{ failure_reason: string | null }[]>`
    SELECT failure_reason FROM payment_intents WHERE checkout_id = ${request.checkoutId} AND status = 'failed'
     ORDER BY created_at DESC LIMIT 1`;
  const reason = failed?.failure_reason ?? "generic_decline";
  return {
    code: "payment_declined",
    text: `The payer approved the payment (${request.id}), but it was declined (${reason}); nothing was charged.`,
  };
}

const POLL_MS = 100;

/**
 * After the deciding transaction commits: wakes this process's subscribers and sends the task's push notifications
 * (the events from `before` to `after`). The hook cannot see the commit, so this watches the row: it sends only once
 * the row shows the decided state, and never when the decision rolled back (the row stays input-required).
 */
function publishWhenCommitted(scope: Scope, owner: string, before: Task, after: Task): void {
  const expected = taskStateToJSON(after.status!.state);
  const deadline = Date.now() + TRANSACTION_TIMEOUT_MS + 5_000;
  void (async () => {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      const row = await getDb().a2aTask.findUnique({ where: { id: after.id }, select: { state: true } });
      if (row?.state === expected) break;
      if (!row || Date.now() > deadline) return;
    }
    taskSaved(after.id);
    const context = new ServerCallContext({ user: { isAuthenticated: true, userName: owner } });
    const sender = new SignedPushNotificationSender(new PostgresPushNotificationStore(scope));
    for (const event of eventsBetween(before, after)) await sender.send(event, context, after);
  })().catch((err) => console.warn("a2a approval notification failed:", err instanceof Error ? err.message : err));
}
