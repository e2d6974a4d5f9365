// The x402 facilitator API for merchants' own servers (docs/x402.md, docs/x402.md): POST /x402/verify,
// POST /x402/settle and GET /x402/supported, authenticated with the merchant's key, bodies and answers as the
// x402 specification (v2, and v1 bodies): verify -> { isValid, invalidReason?, invalidMessage?, payer? },
// settle -> { success, errorReason?, errorMessage?, payer?, transaction, network }. A refusal is an answer
// (200); a body that is not a facilitator request at all is 400 in the same shape, and a settlement that
// failed on our side (no rail, the rail down) its error's status in the same shape (facilitator-route.ts).
import { Reply } from "../http/api";
import type { Caller } from "../scope";
import type { Db } from "../db";
import { checkPayment, type RefusedPayment } from "./check-payment";
import { BASE_SEPOLIA } from "../chains/networks";
import { networkFor, payToAddress } from "./networks";
import { FacilitatorBody } from "./schemas";
import { failedSettleResponse, SettlementFailed } from "./settle-failure";
import { authorizationUsed, nonceUsed, settlePayment, settleResponse } from "./settle-payment";

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
  const payment = await checkPayment({
    merchantId: principal.merchantId,
    livemode: principal.livemode,
    version: request.x402Version,
    ...request,
  });
  if (!payment.ok) return verifyRefusal(payment);
  if (await authorizationUsed(db, payment)) return verifyRefusal(nonceUsed(payment));
  return { isValid: true, payer: payment.payer };
}

export async function settleX402(tx: Db, principal: Caller, body: unknown) {
  const { request, error } = parseBody(body);
  if (!request)
    return new Reply(400, { success: false, errorReason: error.reason, errorMessage: error.message, transaction: "", network: "" });
  const payment = await checkPayment({
    merchantId: principal.merchantId,
    livemode: principal.livemode,
    version: request.x402Version,
    ...request,
  });
  if (!payment.ok) return settleRefusal(payment);
  // A settlement that throws (no rail, the rail down) rolls back and is answered in the settle response's shape.
  const settled = await settlePayment(tx, principal, payment, { name: payment.description || payment.resourceUrl || "x402 payment" }).catch(
    (err: unknown) => {
      throw new SettlementFailed(err, payment.networkName, payment.payer);
    },
  );
  if (!settled.ok) return settleRefusal(settled);
  return { ...settleResponse(payment, settled.paymentIntentId), amount: payment.authorization.value };
}

/** What this facilitator settles for the key's mode, and where the merchant is paid (extra.payTo). */
export function supportedX402(principal: Caller) {
  const network = networkFor(principal.livemode);
  const extra = {
    payTo: payToAddress(principal.merchantId, principal.livemode),
    asset: network.asset,
    ...network.extra,
    settles: network === BASE_SEPOLIA,
  };
  return {
    kinds: [
      { x402Version: 2, scheme: "exact", network: network.caip2, extra },
      { x402Version: 1, scheme: "exact", network: network.v1Name, extra },
    ],
    extensions: [],
    signers: {},
  };
}
