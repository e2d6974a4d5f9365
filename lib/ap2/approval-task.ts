// An AP2 payment made inside an A2A task that waits for the payer's approval (docs/approvals.md "A2A and AP2"): the
// just-opened approval request is tied to its task (and, for AP2 v0.2, to its checkout and the open mandate's spend
// held meanwhile), in the transaction that opened it, so that the decision finds them (lib/a2a/approval-outcome.ts).
import type { Db } from "../db";

export async function tieApprovalToTask(
  tx: Db,
  approvalRequestId: string,
  taskId: string,
  ap2?: { checkoutId: string; heldSpend: unknown[] },
): Promise<void> {
  await tx.$executeRaw`
    UPDATE approval_requests SET a2a_task_id = ${taskId}, ap2_checkout_id = ${ap2?.checkoutId ?? null},
           held_spend = ${ap2 && ap2.heldSpend.length ? JSON.stringify(ap2.heldSpend) : null}::jsonb, updated_at = now()
     WHERE id = ${approvalRequestId}`;
}
