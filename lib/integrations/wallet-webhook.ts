// Inbound webhook from the wallet provider (docs/webhooks.md "Inbound wallet-provider webhook"): signed with WALLET_WEBHOOK_SECRET in our own
// t=,v1= scheme, applied at most once per provider event id, and a `refund.succeeded` event refunds the
// PaymentIntent it names (with the usual refund events). Other event types are acknowledged and ignored.
import { z } from "zod";
import { getDb, transaction } from "../db";
import { env } from "../env";
import { DomainError, NotFoundError, UnauthorizedError } from "../errors";
import { STATUS_BY_CODE } from "../http/errors";
import { createRefund } from "../refunds/create-refund";
import { ServiceError, verifyWebhook } from "agent-payments-sdk";
import { parseOrThrow } from "../validation/parse";
import { rejectNul } from "../validation/text-safety";
import { WalletEvent } from "./schemas";

const RefundData = z.object({ paymentIntentId: z.string().min(1).max(64) }).passthrough();

export type WalletWebhookResult = {
  received: true;
  duplicate?: true;
  ignored?: true;
  refundId?: string;
  rejected?: { code: string; message: string };
};

/** The event the signature covers (401 UNAUTHORIZED for a bad or missing signature, or no secret configured). */
export function verifiedWalletEvent(rawBody: string, signature: string | null): unknown {
  if (!env.WALLET_WEBHOOK_SECRET) throw new UnauthorizedError("Inbound wallet webhooks are not configured (WALLET_WEBHOOK_SECRET).");
  try {
    return verifyWebhook(rawBody, signature ?? "", env.WALLET_WEBHOOK_SECRET);
  } catch (err) {
    if (ServiceError.is(err)) throw new UnauthorizedError(`Invalid wallet webhook signature: ${err.message}`);
    throw err;
  }
}

/** Applies a verified event (see verifiedWalletEvent) at most once. */
export async function handleWalletWebhook(payload: unknown): Promise<WalletWebhookResult> {
  rejectNul(payload, "webhook body");
  const event = parseOrThrow(WalletEvent, payload, "wallet event");
  const isRefund = event.type === "refund.succeeded";
  const refundData = isRefund ? parseOrThrow(RefundData, event.data, "refund event data") : null;

  try {
    return await applyEvent(event, refundData);
  } catch (err) {
    // A refund that can never succeed (unknown PaymentIntent, over-refund, nothing captured) is recorded
    // as rejected and acknowledged, so the provider does not retry it for ever; a 5xx is still retried.
    if (!(err instanceof DomainError) || STATUS_BY_CODE[err.code] >= 500) throw err;
    const rejected = { code: err.code, message: err.message };
    const { count } = await getDb().inboundWalletEvent.createMany({
      data: [{ id: event.id, type: event.type, paymentIntentId: refundData?.paymentIntentId ?? null, rejection: JSON.stringify(rejected) }],
      skipDuplicates: true,
    });
    return count === 0 ? { received: true, duplicate: true } : { received: true, rejected };
  }
}

function applyEvent(event: z.output<typeof WalletEvent>, refundData: z.output<typeof RefundData> | null): Promise<WalletWebhookResult> {
  return transaction(async (tx) => {
    // The event id is claimed in the same transaction as its effect: both commit, or neither does.
    const { count } = await tx.inboundWalletEvent.createMany({
      data: [{ id: event.id, type: event.type, paymentIntentId: refundData?.paymentIntentId ?? null }],
      skipDuplicates: true,
    });
    if (count === 0) return { received: true, duplicate: true };
    if (!refundData) return { received: true, ignored: true };

    const pi = await tx.paymentIntent.findUnique({
      where: { id: refundData.paymentIntentId },
      select: { merchantId: true, livemode: true },
    });
    if (!pi) throw new NotFoundError("payment_intent", refundData.paymentIntentId);
    const refund = await createRefund(tx, pi, {
      paymentIntentId: refundData.paymentIntentId,
      amount: event.data.amount,
      reason: event.data.reason ?? "requested_by_wallet_provider",
    });
    await tx.inboundWalletEvent.update({ where: { id: event.id }, data: { refundId: refund.id } });
    return { received: true, refundId: refund.id };
  });
}
