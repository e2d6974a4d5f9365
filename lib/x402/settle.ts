// The one way a verified x402 payment is settled, whichever path it came by (the facilitator's /x402/settle, a
// hosted resource, the A2A merchant agent): test mode in one transaction with no chain (settle-payment.ts), live
// mode on the chain (settle-on-chain.ts). Both answer in the same terms, and both answer the very payment sent
// again with its first result (`replayed`; replays.ts). A settlement of the same authorization racing this one
// is waited for (10 s at most) so that its duplicate gets the same result, never "used".
import { setTimeout as sleep } from "node:timers/promises";
import { getDb, pgTransaction, transaction, type Db } from "../db";
import { AnswerPendingError } from "../errors";
import type { Scope } from "../scope";
import type { ApprovalRequest } from "../generated/prisma/client";
import { ApprovalRequiredError, SpendingPolicyRefusal } from "../spending-policies/enforce";
import { approvalPendingRefusal, openX402Approval } from "./await-approval";
import { claimKeyOf } from "./chain-claims";
import { windowRefusal, type VerifiedPayment } from "./check-payment";
import { identityOf, PAYMENT_IDENTIFIER_CONFLICT } from "./replays";
import { settleOnChain, type ChainHooks, type ChainSettlement, type SignedPayment } from "./settle-on-chain";
import { openSaleCheckout, settledBefore, settlePayment, type SaleOf } from "./settle-payment";

/** `approval`: refused because the payment waits for the payer's approval (await-approval.ts; reason approval_pending). */
export type X402Settlement = ChainSettlement | (Extract<ChainSettlement, { kind: "refused" }> & { approval: ApprovalRequest });

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
    let settled;
    try {
      settled = await saleTransaction(sale)((tx) => settlePayment(tx, merchant, payment, sale, identity.identity));
    } catch (err) {
      // Above the approval threshold: rolled back whole (the nonce unspent); the request opened on its own.
      if (!(err instanceof ApprovalRequiredError) || !sale.awaitApproval) throw err;
      const request = await openApproval(merchant, payment, sale, err);
      if (request.status === "pending") return awaitingApproval(payment, request);
      continue; // decided meanwhile: settling again meets its decision
    }
    if (settled.ok) return settledAnswer(settled);
    if (settled.approval) return awaitingApproval(payment, settled.approval);
    if (!settled.busy) return { kind: "refused", refusal: settled, transaction: "" };
    if (Date.now() > deadline) throw new AnswerPendingError(null); // still being taken: 503, never "used" (a 402 invites paying again)
    await sleep(pause); // the racing settlement commits in milliseconds (longer under load); then this one finds its claim
  }
}

/**
 * The transaction a test-mode sale settles in: a plain pg one (pgTransaction, lib/db.ts: every step of the settlement,
 * the capture, the policy check, the sale's own `inClaim` and the receipt run prepared statements), without Prisma's
 * interactive transaction. A sale of catalog items keeps Prisma's (the products are priced through the ORM).
 */
function saleTransaction(sale: SaleOf): typeof transaction {
  return sale.items?.length ? transaction : pgTransaction;
}

function openApproval(merchant: Scope, payment: VerifiedPayment, sale: SaleOf, err: ApprovalRequiredError) {
  const key = claimKeyOf(payment);
  const keyText = `${key.network}:${key.asset}:${key.payer}:${key.nonce}`;
  const openSale = (tx: Db) => openSaleCheckout(tx, merchant, payment, sale);
  return openX402Approval(merchant, payment, keyText, sale.paidResourceId ?? null, err.need, openSale);
}

function awaitingApproval(payment: VerifiedPayment, request: ApprovalRequest): X402Settlement {
  return { kind: "refused", refusal: approvalPendingRefusal(payment, request), transaction: "", approval: request };
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
