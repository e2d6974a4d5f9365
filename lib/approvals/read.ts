// The payer's approval requests (docs/approvals.md): one, or a page newest first. Another payer's or the other
// mode's request is 404.
import type { Db } from "../db";
import { NotFoundError } from "../errors";
import { Prisma, type ApprovalRequest } from "../generated/prisma/client";
import { filterIfGiven, findInScope, listNewestFirstSql, type SqlTable } from "../pagination";
import type { Scope } from "../scope";
import { selectList } from "../sql-model";
import type { ListApprovalRequestsInput } from "./schemas";
import { serializeApprovalRequest } from "./serialize";

/** The approval_requests table for the raw-SQL reads of lib/pagination.ts (the list, a request by id): whole rows, as Prisma's. */
const APPROVAL_REQUESTS: SqlTable = { table: "approval_requests", columns: selectList(Prisma.ApprovalRequestScalarFieldEnum) };

export async function findApprovalRequest(db: Db, payer: Scope, id: string): Promise<ApprovalRequest> {
  const row = await findInScope<ApprovalRequest>(db, APPROVAL_REQUESTS, payer, id);
  if (!row) throw new NotFoundError("approval_request", id);
  return row;
}

export async function getApprovalRequest(db: Db, payer: Scope, id: string) {
  return serializeApprovalRequest(await findApprovalRequest(db, payer, id));
}

/** In raw SQL, as the other lists: a later page's two statements cost far less CPU than Prisma's two queries. */
export function listApprovalRequests(db: Db, payer: Scope, query: ListApprovalRequestsInput) {
  const from = { ...APPROVAL_REQUESTS, scope: payer, filters: filterIfGiven("status", query.status) };
  return listNewestFirstSql(db, from, query, serializeApprovalRequest);
}

/** Whether an ACP checkout session's payment waits for the payer's approval (its session then shows pending_approval). */
export async function awaitsApproval(db: Db, acpCheckoutSessionId: string): Promise<boolean> {
  return (await db.approvalRequest.count({ where: { acpCheckoutSessionId, status: "pending" } })) > 0;
}
