// An A2A task whose AP2 payment waits for the payer's approval (docs/approvals.md "A2A and AP2"): the shared payment
// token names a spending agent whose approval threshold is below the amount, so the charge opened an approval
// request (lib/shared-payment-tokens/await-approval.ts) instead of moving money. The task then stays
// input-required (A2A's state for "waiting on the user"), naming the request; lib/a2a/approval-outcome.ts moves it
// on when the payer decides. The request is tied to its task by lib/ap2/approval-task.ts, in the transaction that
// opened it.
import { TaskState, type Task } from "@a2a-js/sdk";
import type { ApprovalRequestView } from "../approvals/schemas";
import { agentMessage, dataPart, textPart, withStatus } from "./protocol";

/** Where the task keeps the request it waits for (its metadata, and the waiting status message's data part). */
export const APPROVAL_KEY = "agentpay.approval";

export interface TaskApproval {
  status: "pending";
  approvalRequestId: string;
  expiresAt: string;
}

/** The task as it waits: input-required, the request named in its status message and its metadata. */
export function awaitingApproval(task: Task, request: Pick<ApprovalRequestView, "id" | "expiresAt">): Task {
  const approval: TaskApproval = { status: "pending", approvalRequestId: request.id, expiresAt: request.expiresAt };
  return withStatus(
    task,
    TaskState.TASK_STATE_INPUT_REQUIRED,
    agentMessage(
      task,
      [
        textPart(
          `The payment waits for the payer's approval (${request.id}) until ${request.expiresAt}; nothing was charged yet. ` +
            "This task completes when the payer approves, and fails when the payer declines or the request expires.",
        ),
        dataPart({ [APPROVAL_KEY]: approval }),
      ],
      { [APPROVAL_KEY]: approval },
    ),
    { metadata: { ...task.metadata, [APPROVAL_KEY]: approval } },
  );
}

/** The request the task waits for, if it does. */
export function approvalOf(task: Task): TaskApproval | undefined {
  const value = task.metadata?.[APPROVAL_KEY] as TaskApproval | undefined;
  return value?.status === "pending" ? value : undefined;
}

/** A follow-up message while the task waits: the same waiting status (no second payment is tried). */
export function stillAwaiting(task: Task, approval: TaskApproval): Task {
  return awaitingApproval(task, { id: approval.approvalRequestId, expiresAt: approval.expiresAt });
}
