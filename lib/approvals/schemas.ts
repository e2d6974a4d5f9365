// Queries and objects of /v1/approval_requests (docs/approvals.md).
import { z } from "zod";
import { ListQuery } from "../validation/common";
import { listOf, Timestamp } from "../validation/objects";

export const APPROVAL_STATUSES = ["pending", "approved", "declined", "expired"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** How a request was decided. */
export const DECIDED_VIA = ["api", "dashboard", "email_link", "expiry"] as const;
export type DecidedVia = (typeof DECIDED_VIA)[number];

export const ListApprovalRequestsQuery = ListQuery.extend({ status: z.enum(APPROVAL_STATUSES).optional() }).strict();
export type ListApprovalRequestsInput = z.output<typeof ListApprovalRequestsQuery>;

/** approve and decline take no body. */
export const DecideApprovalBody = z.object({}).strict().optional();

export const ApprovalRequestObject = z
  .object({
    id: z.string(),
    object: z.literal("approval_request"),
    status: z.enum(APPROVAL_STATUSES),
    spendingAgentId: z.string(),
    /** The merchant the agent wants to pay, and the checkout that waits (pending_approval) meanwhile. */
    merchantId: z.string(),
    checkoutId: z.string(),
    /** The token that pays once approved; null on x402 (the payer's wallet authorization pays: x402Authorization). */
    sharedPaymentTokenId: z.string().nullable(),
    protocol: z.string(),
    acpCheckoutSessionId: z.string().nullable(),
    /** A2A/AP2: the merchant agent's task that waits in input-required (docs/approvals.md, "A2A and AP2"). */
    a2aTaskId: z.string().nullable(),
    amount: z.number().int(),
    currency: z.string(),
    approvalThreshold: z.number().int(),
    /** The captured payment, once approved. */
    paymentIntentId: z.string().nullable(),
    decidedVia: z.enum(DECIDED_VIA).nullable(),
    livemode: z.boolean(),
    expiresAt: Timestamp,
    decidedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    /** x402: the authorization that waits, `network:asset:payer:nonce` (its EIP-3009 nonce; no signature). */
    x402Authorization: z.string().nullable(),
    /** x402: the hosted paid resource (xr_) it pays, if any. */
    paidResourceId: z.string().nullable(),
  })
  .meta({ id: "ApprovalRequest" });
export type ApprovalRequestView = z.infer<typeof ApprovalRequestObject>;

export const ApprovalRequestList = listOf(ApprovalRequestObject, "ApprovalRequestList");
