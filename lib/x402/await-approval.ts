// Human approval on x402 (docs/approvals.md "x402"), test mode. A verified payment whose payer wallet belongs to a
// spending agent and whose charge is above the agent's approval threshold does not settle: the capture's policy
// check throws ApprovalRequiredError and the settlement rolls back WHOLE (the authorization's claim row with it, so
// its nonce stays usable; nothing charged, nothing counted). Then, in a transaction of its own, the request is
// written (protocol x402, naming the authorization by its public key `network:asset:payer:nonce`, never its
// signature) with a checkout of the sale parked in pending_approval, the event and the approvers' mail; a partial
// unique index keeps one pending request per authorization, so racing first payments name the same one.
//
// Approving moves no money here: the service cannot settle an authorization it was not sent. The payer's client
// sends the same authorization again; the settlement (settle-payment.ts) finds the request approved (approvalGate)
// and captures the parked checkout once, the threshold passed by the request (ApprovalRoute.approvedRequestId) and
// every other rule and budget checked then. The claim row's primary key keeps it single-use: a later retry is an
// ordinary replay. Declined or expired: that authorization is refused, nothing charged.
//
// Expiry: the request expires at the sooner of the policy's approvalExpiresIn and the authorization's validBefore
// (less the settling margin): past validBefore the authorization can never settle, so there is nothing to wait for.
import { endUnapproved, parkForApproval } from "../checkouts/await-approval";
import { getDb, sqlIn, statement, transaction, type Db } from "../db";
import { logUnlessDatabaseDown } from "../db-availability";
import { inTransaction } from "../in-transaction";
import { Prisma, type ApprovalRequest } from "../generated/prisma/client";
import { createId } from "../ids";
import { newApprovalLinkToken } from "../approvals/link-token";
import { emitApprovalEvent, mailApprovers } from "../approvals/notify";
import type { Scope } from "../scope";
import { selectList } from "../sql-model";
import type { ApprovalNeed } from "../spending-policies/enforce";
import type { RefusedPayment, VerifiedPayment } from "./check-payment";

/** x402's `error` of a payment that waits for the payer's approval. */
export const APPROVAL_PENDING = "approval_pending";

/** The settling margin of check-payment.ts's window: an authorization this close to validBefore no longer settles. */
const VALID_BEFORE_MARGIN_MS = 6_000;

/** What an authorization meets before it settles: nothing to wait for, a request waiting, one that refuses it, or one approved. */
export type ApprovalGate =
  | { kind: "none" }
  | { kind: "pending"; request: ApprovalRequest }
  | { kind: "refused"; refusal: RefusedPayment }
  | { kind: "approved"; request: ApprovalRequest };

/** The authorization's key as the claim row has it (claimKeyOf): `network:asset:payer:nonce`. */
export type AuthorizationKey = string;

// Every paid request of a hosted resource in test mode asks this: a prepared statement, not an ORM call (lib/db.ts).
const APPROVAL_OF_AUTHORIZATION = statement(
  "x402_approval_of_authorization",
  `SELECT ${selectList(Prisma.ApprovalRequestScalarFieldEnum)} FROM approval_requests
    WHERE x402_authorization = $1 ORDER BY created_at DESC LIMIT 1`,
);

/** The latest request for the authorization decides (one pending at a time; a decided one stays decided). */
export async function approvalGate(
  tx: Db,
  merchant: Scope,
  key: AuthorizationKey,
  payment: VerifiedPayment,
  paidResourceId: string | null,
): Promise<ApprovalGate> {
  const [request] = await sqlIn(tx).rows<ApprovalRequest>(APPROVAL_OF_AUTHORIZATION, [key]);
  if (!request) return { kind: "none" };
  const refuse = (reason: string, message: string): ApprovalGate => ({
    kind: "refused",
    refusal: { ok: false, reason, message: `${message} Nothing was charged.`, networkName: payment.networkName, payer: payment.payer },
  });
  const sameSale =
    request.payeeMerchantId === merchant.merchantId &&
    request.livemode === merchant.livemode &&
    request.amount === payment.cents &&
    (request.paidResourceId ?? null) === paidResourceId;
  if (!sameSale) return refuse("approval_mismatch", `This authorization waits for approval request ${request.id} for another sale.`);
  // An approved request is settled by the retry within the same deadline (its parked checkout's own).
  const overdue = request.expiresAt <= new Date() && !request.paymentIntentId;
  const expired = request.status === "expired" || (overdue && request.status !== "declined");
  if (expired) return refuse("approval_expired", `Approval request ${request.id} for this authorization expired.`);
  if (request.status === "declined") return refuse("approval_declined", `The payer declined approval request ${request.id}.`);
  if (request.status === "pending") return { kind: "pending", request };
  // Approved and paid: the claim row answers it (a replay, or refused as used); approved and unpaid: settle it now.
  return request.paymentIntentId ? { kind: "none" } : { kind: "approved", request };
}

const RECORD_APPROVED_PAYMENT = statement(
  "x402_approval_paid",
  "UPDATE approval_requests SET payment_intent_id = $2, updated_at = now() WHERE id = $1",
);

/** The approved request now names the PaymentIntent its authorization paid (in the settlement's transaction). */
export async function recordApprovedPayment(tx: Db, request: ApprovalRequest, paymentIntentId: string): Promise<void> {
  await sqlIn(tx).count(RECORD_APPROVED_PAYMENT, [request.id, paymentIntentId]);
}

/** Inserts the pending request, or nothing when the authorization already has one (the partial unique index). */
async function insertPendingX402Request(
  tx: Db,
  r: {
    payee: Scope;
    need: ApprovalNeed;
    checkoutId: string;
    key: string;
    paidResourceId: string | null;
    amount: number;
    expiresAt: Date;
    linkTokenHash: string;
  },
): Promise<ApprovalRequest | null> {
  const id = createId("approvalRequest");
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO approval_requests (id, merchant_id, livemode, spending_agent_id, payee_merchant_id, checkout_id, protocol,
                                   amount, currency, approval_threshold, expires_at, link_token_hash, x402_authorization, paid_resource_id)
    VALUES (${id}, ${r.need.payerMerchantId}, ${r.payee.livemode}, ${r.need.spendingAgentId}, ${r.payee.merchantId}, ${r.checkoutId},
            'x402', ${r.amount}, 'USD', ${r.need.approvalThreshold}, ${r.expiresAt}, ${r.linkTokenHash}, ${r.key}, ${r.paidResourceId})
    ON CONFLICT (x402_authorization) WHERE status = 'pending' DO NOTHING
    RETURNING id`;
  return inserted[0] ? tx.approvalRequest.findUniqueOrThrow({ where: { id } }) : null;
}

/** The sooner of the policy's expiry and the authorization's last settling moment. */
function approvalDeadline(payment: VerifiedPayment, expiresInSeconds: number): Date {
  const validBefore = BigInt(payment.authorization.validBefore);
  const validBeforeMs = validBefore > 10n ** 11n ? Number.MAX_SAFE_INTEGER : Number(validBefore) * 1000 - VALID_BEFORE_MARGIN_MS;
  return new Date(Math.min(Date.now() + expiresInSeconds * 1000, validBeforeMs));
}

class AlreadyWaiting extends Error {}

/**
 * Opens the request for a payment the settlement refused to capture (ApprovalRequiredError, rolled back): the sale's
 * checkout (`openSale`, as the capture would open it) parked, the request, its event and mail, in ONE transaction.
 * The authorization already waiting (a racing first payment): nothing written, its request answered.
 */
export async function openX402Approval(
  payee: Scope,
  payment: VerifiedPayment,
  key: AuthorizationKey,
  paidResourceId: string | null,
  need: ApprovalNeed,
  openSale: (tx: Db) => Promise<{ id: string }>,
): Promise<ApprovalRequest> {
  const opened = await transaction(async (tx) => {
    const checkout = await openSale(tx);
    const link = newApprovalLinkToken();
    const expiresAt = approvalDeadline(payment, need.expiresIn);
    const row = await insertPendingX402Request(tx, {
      payee,
      need,
      checkoutId: checkout.id,
      key,
      paidResourceId,
      amount: payment.cents,
      expiresAt,
      linkTokenHash: link.hash,
    });
    if (!row) throw new AlreadyWaiting(); // rolls the checkout back
    await parkForApproval(tx, checkout.id, expiresAt);
    await emitApprovalEvent(tx, "approval_request.created", row);
    await mailApprovers(tx, row, link.token);
    return row;
  }).catch((err: unknown) => {
    if (err instanceof AlreadyWaiting) return null;
    throw err;
  });
  if (opened) return opened;
  // The one waiting (or, decided meanwhile, the latest: the caller settles again and its gate answers it).
  return getDb().approvalRequest.findFirstOrThrow({ where: { x402Authorization: key }, orderBy: { createdAt: "desc" } });
}

/** The refusal that answers a payment waiting for approval (x402's 402, or the facilitator's settle response). */
export function approvalPendingRefusal(payment: VerifiedPayment, request: ApprovalRequest): RefusedPayment {
  return {
    ok: false,
    reason: APPROVAL_PENDING,
    message: `The payment waits for the payer's approval (${request.id}) until ${request.expiresAt.toISOString()}; nothing was charged. Send the same payment again once it is approved.`,
    networkName: payment.networkName,
    payer: payment.payer,
  };
}

/**
 * The tick's sweep (with the approval requests' own): an approved x402 request whose authorization was not sent again
 * before its deadline ends its parked checkout (expired), nothing charged; the request stays approved, unpaid.
 */
export async function expireUnsettledApprovals(db: Db, now: Date = new Date(), limit = 500): Promise<number> {
  const due = await db.$queryRaw<{ checkout_id: string }[]>`
    SELECT r.checkout_id FROM approval_requests r JOIN checkouts c ON c.id = r.checkout_id
     WHERE r.status = 'approved' AND r.expires_at <= ${now} AND r.x402_authorization IS NOT NULL
       AND r.payment_intent_id IS NULL AND c.status = 'pending_approval'
     ORDER BY r.expires_at LIMIT ${limit}`;
  let ended = 0;
  for (const { checkout_id: checkoutId } of due) {
    const done = await inTransaction(db, async (tx) => {
      await endUnapproved(tx, checkoutId, "expired");
      return true;
    }).catch((err: unknown) => {
      logUnlessDatabaseDown(`could not end the checkout ${checkoutId} of an unsettled x402 approval:`, err);
      return false;
    });
    if (done) ended += 1;
  }
  return ended;
}
