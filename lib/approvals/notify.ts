// What tells the payer about an approval request: the events approval_request.created / .approved / .declined /
// .expired (opt-in: only to webhook endpoints that name them), and the mail to the payer's people who may decide
// (owners and admins), with the single-use link. Both written in the transaction of the change they tell about.
import type { Db } from "../db";
import type { EventType } from "../events/types";
import { emitEvent } from "../events/emit-event";
import type { ApprovalRequest } from "../generated/prisma/client";
import { queueMail } from "../mail/outbox";
import { formatMoney } from "../money/format";
import { approvalLinkUrl } from "./link-token";
import { serializeApprovalRequest } from "./serialize";

/** The team roles that may approve or decline (docs/approvals.md): money leaves on their word, as for refunds. */
export const APPROVER_ROLES = ["owner", "admin"] as const;

export function emitApprovalEvent(tx: Db, type: Extract<EventType, `approval_request.${string}`>, row: ApprovalRequest) {
  return emitEvent(tx, { merchantId: row.merchantId, livemode: row.livemode }, type, serializeApprovalRequest(row));
}

export async function mailApprovers(tx: Db, row: ApprovalRequest, linkToken: string): Promise<void> {
  const approvers = await tx.membership.findMany({
    where: { merchantId: row.merchantId, role: { in: [...APPROVER_ROLES] } },
    select: { user: { select: { email: true } } },
  });
  const amount = formatMoney(row.amount, row.currency);
  for (const { user } of approvers) {
    await queueMail(tx, {
      to: user.email,
      kind: "approval_request",
      subject: `Approve a payment of ${amount}?`,
      text:
        `Your spending agent ${row.spendingAgentId} wants to pay ${amount} to merchant ${row.payeeMerchantId} ` +
        `(${row.protocol}), above its approval threshold. Nothing is charged unless you approve.\n\n` +
        `Approve or decline: ${approvalLinkUrl(linkToken)}\n\n` +
        `The link works once, until ${row.expiresAt.toISOString()}; after that the request expires and nothing is charged. ` +
        `You can also decide in the dashboard (Approvals). If you did not expect this, decline it, or ignore this mail and it expires.`,
    });
  }
}
