// A shared payment token's charge above its spending agent's approval threshold waits for a person
// (docs/approvals.md). Opening: the capture's policy check throws ApprovalRequiredError before the rail is asked
// (nothing charged, no budget counted); here, in the same transaction, the request is written (lib/approvals), the
// checkout parked in pending_approval, the event and the approvers' mail queued; ApprovalPendingError then answers
// 402 with the pending reference and COMMITS all of it. Deciding: one atomic UPDATE ... WHERE status = 'pending'
// (lib/approvals/store.ts) decides; of two concurrent approvals the second waits on the row, then finds it approved
// and answers it unchanged, so the charge happens exactly once. Approved: the checkout is reopened and charged in
// the same transaction by the same charge engine (redeemToken -> captureCheckout), the policy's other rules and
// budgets checked and counted then. Declined or expired: the checkout ends with nothing charged.
import { endUnapproved, parkForApproval, reopenApproved } from "../checkouts/await-approval";
import type { Db } from "../db";
import { ConflictError, DomainError, GoneError, PaymentDeclinedError } from "../errors";
import type { ApprovalRequest } from "../generated/prisma/client";
import { runApprovalDecidedHooks } from "../approvals/decided-hooks";
import { newApprovalLinkToken } from "../approvals/link-token";
import { emitApprovalEvent, mailApprovers } from "../approvals/notify";
import { findApprovalRequest } from "../approvals/read";
import type { ApprovalRequestView, DecidedVia } from "../approvals/schemas";
import { serializeApprovalRequest } from "../approvals/serialize";
import { claimDecision, claimLink, insertPendingRequest, pendingRequestOfToken } from "../approvals/store";
import type { PaymentSource } from "../payment-sources";
import type { Scope } from "../scope";
import { ApprovalRequiredError, type ApprovalNeed } from "../spending-policies/enforce";
import { redeemToken, type RedeemOptions } from "./redeem-token";
import type { RedeemTokenInput } from "./schemas";

/** 402 PAYMENT_DECLINED, reason approval_pending, naming the request: what was written stays (commits). */
export class ApprovalPendingError extends DomainError {
  constructor(readonly request: ApprovalRequestView) {
    super(
      "PAYMENT_DECLINED",
      `The charge waits for the payer's approval (${request.id}) until ${request.expiresAt}; nothing was charged yet.`,
      { reason: "approval_pending", approvalRequestId: request.id, expiresAt: request.expiresAt },
      true,
    );
  }
}

/** redeemToken, except that a charge above the approval threshold waits for the payer (ApprovalPendingError). */
export async function redeemOrAwaitApproval(
  tx: Db,
  merchant: Scope,
  tokenId: string,
  input: RedeemTokenInput,
  options: RedeemOptions & { source: PaymentSource },
) {
  try {
    return await redeemToken(tx, merchant, tokenId, input, { ...options, approval: { canWait: true } });
  } catch (err) {
    if (!(err instanceof ApprovalRequiredError)) throw err;
    throw await openApprovalRequest(tx, merchant, err.need, tokenId, options);
  }
}

async function openApprovalRequest(tx: Db, payee: Scope, need: ApprovalNeed, tokenId: string, options: RedeemOptions & { source: string }) {
  const checkout = await tx.checkout.findUniqueOrThrow({ where: { id: need.checkoutId } });
  const link = newApprovalLinkToken();
  const expiresAt = new Date(Date.now() + need.expiresIn * 1000);
  const row = await insertPendingRequest(tx, {
    payerMerchantId: need.payerMerchantId,
    payeeMerchantId: payee.merchantId,
    livemode: payee.livemode,
    spendingAgentId: need.spendingAgentId,
    checkoutId: checkout.id,
    sharedPaymentTokenId: tokenId,
    protocol: options.source,
    acpCheckoutSessionId: options.acpCheckoutSessionId ?? null,
    amount: checkout.amount,
    currency: checkout.currency,
    approvalThreshold: need.approvalThreshold,
    expiresAt,
    linkTokenHash: link.hash,
  });
  if (!row) {
    const waiting = await pendingRequestOfToken(tx, tokenId);
    return new ConflictError(
      `Shared payment token ${tokenId} already waits for the payer's approval${waiting ? ` (${waiting.id})` : ""}; nothing was charged.`,
      { reason: "approval_pending", ...(waiting ? { approvalRequestId: waiting.id } : {}) },
    );
  }
  await parkForApproval(tx, checkout.id, expiresAt);
  await emitApprovalEvent(tx, "approval_request.created", row);
  await mailApprovers(tx, row, link.token);
  return new ApprovalPendingError(serializeApprovalRequest(row));
}

/** The request was decided already: the same decision answers it unchanged; another is 409 naming its status. */
async function alreadyDecided(tx: Db, payer: Scope, id: string, wanted: "approved" | "declined") {
  const row = await findApprovalRequest(tx, payer, id);
  if (row.status === wanted) return serializeApprovalRequest(row);
  const status = row.status === "pending" ? "expired" : row.status; // pending past its deadline: the sweep expires it
  throw new ConflictError(`Approval request ${id} is ${status}; nothing changed.`, { reason: `approval_${status}`, status });
}

export async function approveRequest(tx: Db, payer: Scope, id: string, via: DecidedVia) {
  const claimed = await claimDecision(tx, payer, id, "approved", via);
  if (!claimed) return alreadyDecided(tx, payer, id, "approved");
  // x402: approving moves no money; the payer's client sends the same authorization again and it settles once then
  // (lib/x402/await-approval.ts). The parked checkout waits for it.
  if (claimed.x402Authorization !== null) return approvedForRetry(tx, claimed);
  if (claimed.sharedPaymentTokenId === null) throw new Error(`Approval request ${id} names no shared payment token to charge`);
  await reopenApproved(tx, claimed.checkoutId);
  const paid = await redeemToken(
    tx,
    { merchantId: claimed.payeeMerchantId, livemode: claimed.livemode },
    claimed.sharedPaymentTokenId,
    { currency: claimed.currency } as RedeemTokenInput, // the approved checkout is charged as it stands
    {
      source: claimed.protocol as PaymentSource,
      acpCheckoutSessionId: claimed.acpCheckoutSessionId ?? undefined,
      approval: { approvedRequestId: claimed.id },
      approvedCheckoutId: claimed.checkoutId,
      spendingAgentId: claimed.spendingAgentId, // the agent that asked (a token's, or its carrying credential's)
    },
  ).catch(async (err: unknown) => {
    // A decline commits (the failed PaymentIntent stays, and the request stays approved with none paid): what waited
    // on the request is told now (an A2A task fails and gives its held spend back), or it would wait for ever.
    if (err instanceof PaymentDeclinedError) await runApprovalDecidedHooks(tx, claimed);
    throw err;
  });
  const row = await tx.approvalRequest.update({ where: { id }, data: { paymentIntentId: paid.id, updatedAt: new Date() } });
  await emitApprovalEvent(tx, "approval_request.approved", row);
  await runApprovalDecidedHooks(tx, row);
  return serializeApprovalRequest(row);
}

/** An approved request whose payer's client completes the payment itself (x402): told, nothing charged now. */
async function approvedForRetry(tx: Db, claimed: ApprovalRequest) {
  await emitApprovalEvent(tx, "approval_request.approved", claimed);
  await runApprovalDecidedHooks(tx, claimed);
  return serializeApprovalRequest(claimed);
}

export async function declineRequest(tx: Db, payer: Scope, id: string, via: DecidedVia) {
  const claimed = await claimDecision(tx, payer, id, "declined", via);
  if (!claimed) return alreadyDecided(tx, payer, id, "declined");
  await endApproval(tx, claimed, "declined");
  return serializeApprovalRequest(claimed);
}

/** A declined or expired request: its checkout ends with nothing charged, its event and adapters told. */
export async function endApproval(tx: Db, request: ApprovalRequest, outcome: "declined" | "expired"): Promise<void> {
  await endUnapproved(tx, request.checkoutId, outcome);
  await emitApprovalEvent(tx, `approval_request.${outcome}`, request);
  await runApprovalDecidedHooks(tx, request);
}

/**
 * The mailed link's decision: the link is spent (lib/approvals/store.ts claimLink) in the transaction of the decision
 * itself, so it works once; 410 when used, decided or expired.
 */
export async function decideByLink(tx: Db, token: string, decision: "approve" | "decline") {
  const hit = await claimLink(tx, token);
  if (!hit) throw new GoneError("This approval link was used already, or its request was decided or has expired; nothing changed.");
  const payer = { merchantId: hit.merchantId, livemode: hit.livemode };
  return decision === "approve" ? approveRequest(tx, payer, hit.id, "email_link") : declineRequest(tx, payer, hit.id, "email_link");
}
