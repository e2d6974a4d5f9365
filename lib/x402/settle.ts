// The one way a verified x402 payment is settled, whichever path it came by (the facilitator's /x402/settle, a
// hosted resource, the A2A merchant agent): test mode in one transaction with no chain (settle-payment.ts), live
// mode on the chain (settle-on-chain.ts). Both answer in the same terms, and both answer the very payment sent
// again with its first result (`replayed`; replays.ts). A settlement of the same authorization racing this one
// is waited for (10 s at most) so that its duplicate gets the same result, never "used".
import { setTimeout as sleep } from "node:timers/promises";
import { getDb, transaction } from "../db";
import { AnswerPendingError } from "../errors";
import type { Scope } from "../scope";
import { SpendingPolicyRefusal } from "../spending-policies/enforce";
import { windowRefusal, type VerifiedPayment } from "./check-payment";
import { identityOf, PAYMENT_IDENTIFIER_CONFLICT } from "./replays";
import { settleOnChain, type ChainHooks, type ChainSettlement, type SignedPayment } from "./settle-on-chain";
import { settledBefore, settlePayment, type SaleOf } from "./settle-payment";

export type X402Settlement = ChainSettlement;

/** How long a duplicate waits for the settlement of its authorization running elsewhere to commit. */
const RACE_WAIT_MS = 10_000;

export async function settleVerifiedPayment(
  merchant: Scope,
  payment: VerifiedPayment,
  sale: SaleOf,
  signed: SignedPayment,
  hooks: ChainHooks = {},
): Promise<X402Settlement> {
  try {
    return await settleOrRefuse(merchant, payment, sale, signed, hooks);
  } catch (err) {
    // The payer's spending policy refused (docs/spending-policies.md): rolled back, the authorization unspent; x402's own refusal.
    if (!(err instanceof SpendingPolicyRefusal)) throw err;
    const refusal = {
      ok: false as const,
      reason: err.reason,
      message: err.message,
      networkName: payment.networkName,
      payer: payment.payer,
    };
    return { kind: "refused", refusal, transaction: "" };
  }
}

async function settleOrRefuse(
  merchant: Scope,
  payment: VerifiedPayment,
  sale: SaleOf,
  signed: SignedPayment,
  hooks: ChainHooks = {},
): Promise<X402Settlement> {
  const identity = identityOf(signed.paymentPayload, payment);
  if (!identity.ok) {
    const refusal = {
      ok: false as const,
      reason: "invalid_payload",
      message: identity.message,
      networkName: payment.networkName,
      payer: payment.payer,
    };
    return { kind: "refused", refusal, transaction: "" };
  }
  if (merchant.livemode) return settleOnChain(merchant, payment, sale, signed, identity.identity, hooks);
  // Test mode checks the time window here, after the payment's first result: a payment sent again after it still gets that.
  const late = windowRefusal(payment);
  if (late) {
    const again = await settledBefore(getDb(), merchant, payment, sale, identity.identity);
    return again.ok
      ? settledAnswer(again)
      : { kind: "refused", refusal: again.reason === PAYMENT_IDENTIFIER_CONFLICT ? again : late, transaction: "" };
  }
  const deadline = Date.now() + RACE_WAIT_MS;
  for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
    const settled = await transaction((tx) => settlePayment(tx, merchant, payment, sale, identity.identity));
    if (settled.ok) return settledAnswer(settled);
    if (!settled.busy) return { kind: "refused", refusal: settled, transaction: "" };
    if (Date.now() > deadline) throw new AnswerPendingError(null); // still being taken: 503, never "used" (a 402 invites paying again)
    await sleep(pause); // the racing settlement commits in milliseconds (longer under load); then this one finds its claim
  }
}

function settledAnswer({
  paymentIntentId,
  orderId,
  replayed,
}: {
  paymentIntentId: string;
  orderId: string;
  replayed: boolean;
}): X402Settlement {
  return { kind: "settled", paymentIntentId, orderId, transaction: paymentIntentId, replayed };
}
