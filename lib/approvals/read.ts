// The payer's approval requests (docs/approvals.md): one, or a page newest first. Another payer's or the other
// mode's request is 404.
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import type { ApprovalRequest } from "../generated/prisma/client";
import { listNewestFirst } from "../pagination";
import type { Scope } from "../scope";
import type { ListApprovalRequestsInput } from "./schemas";
import { serializeApprovalRequest } from "./serialize";

export async function findApprovalRequest(db: Db, payer: Scope, id: string): Promise<ApprovalRequest> {
  const row = await db.approvalRequest.findFirst({ where: { id, merchantId: payer.merchantId, livemode: payer.livemode } });
  if (!row) throw new NotFoundError("approval_request", id);
  return row;
}

export async function getApprovalRequest(db: Db, payer: Scope, id: string) {
  return serializeApprovalRequest(await findApprovalRequest(db, payer, id));
}

export function listApprovalRequests(db: Db, payer: Scope, query: ListApprovalRequestsInput) {
  return listNewestFirst(
    db.approvalRequest,
    { scope: { merchantId: payer.merchantId, livemode: payer.livemode }, filters: query.status ? { status: query.status } : {} },
    query,
    serializeApprovalRequest,
  );
}

/** Whether an ACP checkout session's payment waits for the payer's approval (its session then shows pending_approval). */
export async function awaitsApproval(db: Db, acpCheckoutSessionId: string): Promise<boolean> {
  return (await db.approvalRequest.count({ where: { acpCheckoutSessionId, status: "pending" } })) > 0;
}
