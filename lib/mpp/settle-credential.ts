// Settles a `service` credential: records its challenge as used and redeems its shared payment token into a
// captured PaymentIntent (source "mpp"), in the caller's ONE transaction. Money moves only through
// redeemToken (lib/shared-payment-tokens/redeem-token.ts): its token lock, checkout and capture.
//
// The same credential sent again (a lost answer) within PAID_REPLAY_WINDOW_SECONDS answers its first settlement
// (`replayed`): the row keeps the credential's hash, and only that exact credential gets it.
//
// Single use of a challenge: the row's primary key (merchant, mode, challenge id) is the guard. A transaction
// try-locks the challenge first (lockSingleUse, lib/single-use.ts): a second credential for a challenge being
// settled right now is refused at once instead of waiting on a connection; then INSERT ... ON CONFLICT DO NOTHING inserts
// nothing for a challenge already settled (committed), which is a replay. A refusal of the token rolls the
// insert back with everything else, so the challenge stays usable with another token; a declined charge
// commits (the PaymentIntent failed, the token still active) with its challenge used.
//
// Human approval (docs/approvals.md), hosted resources and POST /mpp/verify alike: a charge above the spending agent's threshold commits
// the challenge row naming the parked checkout's PaymentIntent (CredentialAwaitsApproval). That row is the link
// between the approval and the credential: the same credential sent again answers the pending request while it
// waits, and once a person approved (the approval's capture IS the payment) it finds that PaymentIntent captured and
// is answered as a replay: nothing is charged again, and the challenge's primary key keeps it single-use.
import type { Db } from "../db";
import { env } from "../env";
import type { MppChallenge, PaymentIntent } from "../generated/prisma/client";
import { BusyError, ConflictError } from "../errors";
import type { ApprovalRequestView } from "../approvals/schemas";
import { serializeApprovalRequest } from "../approvals/serialize";
import type { Scope } from "../scope";
import { lockSingleUse } from "../single-use";
import { getPaymentIntent } from "../checkouts/read-orders-and-payments";
import { ApprovalPendingError, redeemOrAwaitApproval } from "../shared-payment-tokens/await-approval";

export interface SettleInput {
  challengeId: string;
  /** The hosted resource (xr_) of the service's own challenges; null for a merchant's own (POST /mpp/verify). */
  resourceId: string | null;
  expiresAt: Date;
  amount: number;
  /** Any case; the token and the PaymentIntent keep the upper-case code. */
  currency: string;
  description?: string;
  spt: string;
  /** The exact credential's hash (credentialHashOf). */
  credentialHash: string;
  /** A hosted resource's sale: its id and the payer as the credential names it (its optional `source`). */
  sale?: { paidResourceId: string; payer?: string | null };
}

type SerializedPaymentIntent = Awaited<ReturnType<typeof getPaymentIntent>>;

/** The credential's charge waits for the payer's approval; what was written commits (the challenge kept for it). */
export class CredentialAwaitsApproval extends ApprovalPendingError {
  constructor(
    request: ApprovalRequestView,
    /** The parked checkout's PaymentIntent: captured by the approval, the same credential's payment. */
    readonly paymentIntentId: string,
  ) {
    super(request);
  }
}

export async function settleCredential(
  tx: Db,
  merchant: Scope,
  input: SettleInput,
): Promise<{ paymentIntent: SerializedPaymentIntent; replayed: boolean }> {
  const key = `${merchant.merchantId}:${merchant.livemode ? "live" : "test"}:${input.challengeId}`;
  if (!(await lockSingleUse(tx, "mpp", key)))
    throw new BusyError(`Challenge ${input.challengeId} is being paid by another request.`, {
      reason: "challenge_in_use",
      challengeId: input.challengeId,
    });
  const inserted = await tx.$executeRaw`
    INSERT INTO mpp_challenges (merchant_id, livemode, challenge_id, resource_id, token_id, amount, currency, expires_at, credential_hash)
    VALUES (${merchant.merchantId}, ${merchant.livemode}, ${input.challengeId}, ${input.resourceId}, ${input.spt}, ${input.amount},
            ${input.currency.toUpperCase()}, ${input.expiresAt}, ${input.credentialHash})
    ON CONFLICT DO NOTHING`;
  if (inserted === 0) {
    const used = await tx.mppChallenge.findUnique({
      where: {
        merchantId_livemode_challengeId: { merchantId: merchant.merchantId, livemode: merchant.livemode, challengeId: input.challengeId },
      },
    });
    const first = used && (await replayedPayment(tx, used, input));
    if (first) return { paymentIntent: await getPaymentIntent(tx, merchant, first.id), replayed: true };
    const waiting = used && (await approvalAwaited(tx, used, input));
    if (waiting) throw waiting;
    throw new ConflictError(`Challenge ${input.challengeId} has already been used; nothing was charged.`, {
      reason: "challenge_used",
      challengeId: input.challengeId,
      ...(used?.paymentIntentId ? { paymentIntentId: used.paymentIntentId } : {}),
    });
  }
  const charge = {
    amount: input.amount,
    currency: input.currency.toUpperCase(),
    ...(input.description ? { description: input.description.slice(0, 1000) } : {}),
  };
  // Both a hosted resource's buyer and a merchant's own server (POST /mpp/verify) send the same credential again.
  const paymentIntent = await redeemOrAwaitApproval(tx, merchant, input.spt, charge, {
    source: "mpp",
    ...(input.sale ? { sale: input.sale } : {}),
  }).catch((err: unknown) => keepForApproval(tx, merchant, input.challengeId, err));
  await tx.mppChallenge.update({
    where: {
      merchantId_livemode_challengeId: { merchantId: merchant.merchantId, livemode: merchant.livemode, challengeId: input.challengeId },
    },
    data: { paymentIntentId: paymentIntent.id },
  });
  return { paymentIntent, replayed: false };
}

/** The first settlement of this exact credential, paid within the replay window; null for another credential. */
async function replayedPayment(tx: Db, used: MppChallenge, input: SettleInput): Promise<PaymentIntent | null> {
  if (used.credentialHash !== input.credentialHash || !used.paymentIntentId || used.resourceId !== input.resourceId) return null;
  if (used.createdAt.getTime() < Date.now() - env.PAID_REPLAY_WINDOW_SECONDS * 1000) return null;
  const pi = await tx.paymentIntent.findUnique({ where: { id: used.paymentIntentId } });
  return pi && ["captured", "settled", "refunded"].includes(pi.status) ? pi : null; // a declined one stays refused
}

/** A charge parked for approval: its challenge row names the parked PaymentIntent (the link to the approval), then throws. */
async function keepForApproval(tx: Db, merchant: Scope, challengeId: string, err: unknown): Promise<never> {
  if (!(err instanceof ApprovalPendingError)) throw err;
  const { paymentIntentId } = await tx.checkout.findUniqueOrThrow({ where: { id: err.request.checkoutId } });
  await tx.mppChallenge.update({
    where: { merchantId_livemode_challengeId: { merchantId: merchant.merchantId, livemode: merchant.livemode, challengeId } },
    data: { paymentIntentId },
  });
  throw new CredentialAwaitsApproval(err.request, paymentIntentId);
}

/** This exact credential's charge still waits for the payer's approval: the pending answer again, nothing written. */
async function approvalAwaited(tx: Db, used: MppChallenge, input: SettleInput): Promise<CredentialAwaitsApproval | null> {
  if (used.credentialHash !== input.credentialHash || !used.paymentIntentId) return null;
  const checkout = await tx.checkout.findUnique({ where: { paymentIntentId: used.paymentIntentId }, select: { id: true } });
  const request =
    checkout &&
    (await tx.approvalRequest.findFirst({ where: { checkoutId: checkout.id, status: "pending", expiresAt: { gt: new Date() } } }));
  return request ? new CredentialAwaitsApproval(serializeApprovalRequest(request), used.paymentIntentId) : null;
}
