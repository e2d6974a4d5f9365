// The x402 facilitator API for merchants' own servers (docs/x402.md, docs/x402.md): POST /x402/verify,
// POST /x402/settle and GET /x402/supported, authenticated with the merchant's key, bodies and answers as the
// x402 specification (v2, and v1 bodies): verify -> { isValid, invalidReason?, invalidMessage?, payer? },
// settle -> { success, errorReason?, errorMessage?, payer?, transaction, network }. A refusal is an answer
// (200); a body that is not a facilitator request at all is 400 in the same shape, and a settlement that
// failed on our side (no rail, the rail down) its error's status in the same shape (facilitator-route.ts).
import { Reply } from "../http/api";
import type { Caller } from "../scope";
import { getDb, type Db } from "../db";
import { claimKeyOf, readClaim } from "./chain-claims";
import { checkPayment, windowRefusal, type RefusedPayment } from "./check-payment";
import { settleReceipts } from "./receipts";
import { identifierConflict, identifierTaken, identityOf, PAYMENT_IDENTIFIER_CONFLICT, replayedPayment } from "./replays";
import { payableNetworks } from "../chains/payable-networks";
import { isUptoRequest, settleUptoX402, uptoKinds, verifyUptoX402 } from "./facilitator-upto";
import { FacilitatorBody } from "./schemas";
import { settleVerifiedPayment } from "./settle";
import { failedSettleResponse, SettlementFailed } from "./settle-failure";
import { SETTLEMENT_PENDING, verifyPaymentOnChain, type ChainHooks } from "./settle-on-chain";
import { nonceUsed, settleResponse } from "./settle-payment";

function malformed(message: string) {
  return { reason: "invalid_payload", message: `Not an x402 facilitator request: ${message}` };
}

function parseBody(body: unknown) {
  const parsed = FacilitatorBody.safeParse(body);
  if (!parsed.success) {
    return {
      error: malformed(
        parsed.error.issues
          .slice(0, 3)
          .map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`)
          .join("; "),
      ),
    };
  }
  return { request: parsed.data };
}

function verifyRefusal(refused: RefusedPayment) {
  return {
    isValid: false,
    invalidReason: refused.reason,
    invalidMessage: refused.message,
    ...(refused.payer ? { payer: refused.payer } : {}),
  };
}

function settleRefusal(refused: RefusedPayment) {
  return failedSettleResponse(refused.reason, refused.message, refused.networkName, refused.payer);
}

export async function verifyX402(db: Db, principal: Caller, body: unknown) {
  const { request, error } = parseBody(body);
  if (!request) return new Reply(400, { isValid: false, invalidReason: error.reason, invalidMessage: error.message });
  if (isUptoRequest(request)) return verifyUptoX402(db, principal, request);
  const networks = await payableNetworks(db, principal.merchantId, principal.livemode);
  const check = { livemode: principal.livemode, networks, version: request.x402Version, skipWindow: true, ...request };
  const payment = await checkPayment(check);
  if (!payment.ok) return verifyRefusal(payment);
  const identity = identityOf(request.paymentPayload, payment);
  if (!identity.ok) return verifyRefusal({ ...nonceUsed(payment), reason: "invalid_payload", message: identity.message });
  // Settled before: valid for the merchant that settled this very payload (its settle answers the first result).
  const claim = await readClaim(db, claimKeyOf(payment));
  if (claim) {
    const pi = await replayedPayment(db, claim, principal, identity.identity, {});
    if (pi === "conflict") return new Reply(409, verifyRefusal(identifierConflict(payment)));
    return pi && pi.status !== "failed" ? { isValid: true, payer: payment.payer } : verifyRefusal(nonceUsed(payment));
  }
  if (await identifierTaken(db, principal, identity.identity.paymentIdentifier))
    return new Reply(409, verifyRefusal(identifierConflict(payment)));
  // Test mode: the time window. Live: the official scheme's checks against the chain (window, balance, authorization state, simulation).
  const refused = principal.livemode ? await verifyPaymentOnChain(payment, request) : windowRefusal(payment);
  if (refused) return verifyRefusal(refused);
  return { isValid: true, payer: payment.payer };
}

export async function settleX402(principal: Caller, body: unknown, hooks: ChainHooks = {}) {
  const { request, error } = parseBody(body);
  if (!request)
    return new Reply(400, { success: false, errorReason: error.reason, errorMessage: error.message, transaction: "", network: "" });
  if (isUptoRequest(request)) return settleUptoX402(principal, request);
  const networks = await payableNetworks(getDb(), principal.merchantId, principal.livemode);
  const payment = await checkPayment({
    livemode: principal.livemode,
    networks,
    version: request.x402Version,
    skipWindow: true,
    ...request,
  });
  if (!payment.ok) return settleRefusal(payment);
  // A settlement that throws (no rail, the rail or the chain down) is answered in the settle response's shape.
  // Test mode: above the payer's approval threshold, errorReason approval_pending naming the request (docs/approvals.md "x402").
  const sale = { name: payment.description || payment.resourceUrl || "x402 payment", awaitApproval: !principal.livemode };
  const settled = await settleVerifiedPayment(principal, payment, sale, request, hooks).catch((err: unknown) => {
    throw new SettlementFailed(err, payment.networkName, payment.payer);
  });
  if (settled.kind === "refused" && "approval" in settled) {
    const approval = { approvalRequestId: settled.approval.id, expiresAt: settled.approval.expiresAt.toISOString() };
    return { ...settleRefusal(settled.refusal), extensions: approval };
  }
  if (settled.kind === "refused") {
    const refusal = { ...settleRefusal(settled.refusal), transaction: settled.transaction };
    return settled.refusal.reason === PAYMENT_IDENTIFIER_CONFLICT ? new Reply(409, refusal) : refusal;
  }
  if (settled.kind === "pending") {
    const message = `The transaction ${settled.transaction || "(being sent)"} is not confirmed yet; settle the same payment again to learn its outcome.`;
    return { ...failedSettleResponse(SETTLEMENT_PENDING, message, payment.networkName, payment.payer), transaction: settled.transaction };
  }
  // extensions: the PaymentIntent (in live mode `transaction` is the chain's), and whether this answers a payment
  // again (the same payload settled before: its first result, which the SDK's paywall never serves twice).
  // The service's receipt only: the offer-receipt is the resource server's to sign (a hosted resource's answer has it).
  const paid = { paymentIntentId: settled.paymentIntentId, payer: payment.payer, network: payment.network.caip2 };
  const receipts = await settleReceipts(getDb(), { ...paid, transaction: settled.transaction, resourceUrl: null });
  return {
    ...settleResponse(payment, settled.transaction),
    amount: payment.authorization.value,
    extensions: { paymentIntentId: settled.paymentIntentId, ...(settled.replayed ? { replayed: true } : {}), ...receipts },
  };
}

/**
 * What this facilitator settles for the key's mode, and where the merchant is paid (extra.payTo): `exact` per payable
 * network (v2, and v1 where x402 v1 names it), then `upto` (v2; extra.facilitatorAddress: facilitator-upto.ts).
 */
export async function supportedX402(db: Db, principal: Caller) {
  const networks = await payableNetworks(db, principal.merchantId, principal.livemode);
  return {
    kinds: [
      ...networks.flatMap((network) => {
        const extra = { payTo: network.payTo, asset: network.asset, ...network.extra, settles: true };
        const v2 = { x402Version: 2, scheme: "exact", network: network.caip2, extra };
        return network.v1Name ? [v2, { x402Version: 1, scheme: "exact", network: network.v1Name, extra }] : [v2];
      }),
      ...uptoKinds(networks, principal.livemode),
    ],
    extensions: [],
    signers: {},
  };
}
