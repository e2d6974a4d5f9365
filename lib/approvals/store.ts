// The statements that move an approval request (docs/approvals.md), each ONE atomic statement so that the
// database decides between concurrent deciders: the insert (one pending request per token, a partial unique index),
// a decision (UPDATE ... WHERE status = 'pending' AND expires_at > now()), the mailed link's single use, the expiry.
import type { Db } from "../db";
import type { ApprovalRequest } from "../generated/prisma/client";
import { createId } from "../ids";
import { hashApprovalLinkToken } from "./link-token";
import type { DecidedVia } from "./schemas";

export interface NewApprovalRequest {
  payerMerchantId: string;
  payeeMerchantId: string;
  livemode: boolean;
  spendingAgentId: string;
  checkoutId: string;
  sharedPaymentTokenId: string;
  protocol: string;
  acpCheckoutSessionId: string | null;
  amount: number;
  currency: string;
  approvalThreshold: number;
  expiresAt: Date;
  linkTokenHash: string;
}

/** The new pending request, or null when the token already has one pending (nothing written). */
export async function insertPendingRequest(tx: Db, r: NewApprovalRequest): Promise<ApprovalRequest | null> {
  const id = createId("approvalRequest");
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO approval_requests (id, merchant_id, livemode, spending_agent_id, payee_merchant_id, checkout_id,
                                   shared_payment_token_id, protocol, acp_checkout_session_id, amount, currency,
                                   approval_threshold, expires_at, link_token_hash)
    VALUES (${id}, ${r.payerMerchantId}, ${r.livemode}, ${r.spendingAgentId}, ${r.payeeMerchantId}, ${r.checkoutId},
            ${r.sharedPaymentTokenId}, ${r.protocol}, ${r.acpCheckoutSessionId}, ${r.amount}, ${r.currency},
            ${r.approvalThreshold}, ${r.expiresAt}, ${r.linkTokenHash})
    ON CONFLICT (shared_payment_token_id) WHERE status = 'pending' DO NOTHING
    RETURNING id`;
  return inserted[0] ? tx.approvalRequest.findUniqueOrThrow({ where: { id } }) : null;
}

/** The token's pending request, if any. */
export function pendingRequestOfToken(db: Db, sharedPaymentTokenId: string): Promise<ApprovalRequest | null> {
  return db.approvalRequest.findFirst({ where: { sharedPaymentTokenId, status: "pending" } });
}

/** The payer's pending, unexpired request moved to `to` by one UPDATE; null when it is not (any more). */
export async function claimDecision(
  tx: Db,
  payer: { merchantId: string; livemode: boolean },
  id: string,
  to: "approved" | "declined",
  via: DecidedVia,
): Promise<ApprovalRequest | null> {
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    UPDATE approval_requests SET status = ${to}, decided_at = now(), decided_via = ${via}, updated_at = now()
     WHERE id = ${id} AND merchant_id = ${payer.merchantId} AND livemode = ${payer.livemode}
       AND status = 'pending' AND expires_at > now()
    RETURNING id`;
  return row ? tx.approvalRequest.findUniqueOrThrow({ where: { id } }) : null;
}

/** Spends the mailed link (once, while its request is pending and unexpired): the request, or null. */
export async function claimLink(tx: Db, token: string): Promise<{ id: string; merchantId: string; livemode: boolean } | null> {
  const [hit] = await tx.$queryRaw<{ id: string; merchant_id: string; livemode: boolean }[]>`
    UPDATE approval_requests SET link_used_at = now()
     WHERE link_token_hash = ${hashApprovalLinkToken(token)} AND link_used_at IS NULL AND status = 'pending' AND expires_at > now()
    RETURNING id, merchant_id, livemode`;
  return hit ? { id: hit.id, merchantId: hit.merchant_id, livemode: hit.livemode } : null;
}

/** The request a mailed link names (any status), for its page; null: no such link. */
export function findByLinkToken(db: Db, token: string): Promise<ApprovalRequest | null> {
  return db.approvalRequest.findUnique({ where: { linkTokenHash: hashApprovalLinkToken(token) } });
}

/** Pending requests past their deadline, oldest deadline first. */
export function dueForExpiry(db: Db, now: Date, limit: number): Promise<{ id: string }[]> {
  return db.$queryRaw<{ id: string }[]>`
    SELECT id FROM approval_requests WHERE status = 'pending' AND expires_at <= ${now} ORDER BY expires_at LIMIT ${limit}`;
}

/** One request past its deadline moved to expired (once, whatever races it): the request, or null. */
export async function claimExpiry(tx: Db, id: string, now: Date): Promise<ApprovalRequest | null> {
  const [hit] = await tx.$queryRaw<{ id: string }[]>`
    UPDATE approval_requests SET status = 'expired', decided_at = now(), decided_via = 'expiry', updated_at = now()
     WHERE id = ${id} AND status = 'pending' AND expires_at <= ${now} RETURNING id`;
  return hit ? tx.approvalRequest.findUniqueOrThrow({ where: { id } }) : null;
}
