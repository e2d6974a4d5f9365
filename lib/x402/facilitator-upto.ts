// The facilitator's `upto` (docs/x402.md, "Usage-priced resources" and "upto through the facilitator"): a merchant's
// own server (the SDK's paywallHttp, a stock x402 resource server through HTTPFacilitatorClient) verifies the payer's
// authorization of a maximum, runs the request, then settles what it used. As @x402/evm/upto/facilitator does:
//   - verify: the upto checks (upto.ts) against the requirements, whose `amount` is the maximum;
//   - settle: the requirements' `amount` is the amount actually used; the authorization is checked against its own
//     maximum (`permitted.amount`), and an amount above it is refused (invalid_upto_evm_payload_settlement_exceeds_amount).
// Test mode: the settle holds and captures the amount in one transaction (settle-upto.ts), single use by the
// authorization's row; zero: the authorization spent, nothing captured. Live mode: verified against the chain, and
// settled on it through the official scheme, claimed first (settle-upto-on-chain.ts); zero sends nothing. The requirements must be this merchant's:
// its network, token and payTo (GET /x402/supported lists the `upto` kinds with extra.facilitatorAddress).
import { setTimeout as sleep } from "node:timers/promises";
import { getDb, type Db } from "../db";
import { AnswerPendingError } from "../errors";
import { MAX_AMOUNT } from "../money/limits";
import type { Caller } from "../scope";
import { payableNetwork, payableNetworks, type PayableNetwork } from "../chains/payable-networks";
import type { RefusedPayment } from "./check-payment";
import { ATOMIC_PER_CENT, centsToAtomic } from "./networks";
import { settleReceipts } from "./receipts";
import { payloadHashOf } from "./replays";
import { failedSettleResponse, SettlementFailed } from "./settle-failure";
import { settleUptoNow, uptoSettledBefore, type UptoSettlement } from "./settle-upto";
import { RequirementsV2 } from "./schemas";
import { SETTLEMENT_PENDING, type ChainSettlement, type SignedPayment } from "./settle-on-chain";
import { settleUptoOnChain, verifyUptoOnChain } from "./settle-upto-on-chain";
import {
  checkUptoPayment,
  UPTO,
  UPTO_SETTLEMENT_EXCEEDS,
  uptoDeadlineRefusal,
  UptoEvmPayload,
  type UptoTerms,
  uptoFacilitator,
  type VerifiedUpto,
} from "./upto";

/** A facilitator request (FacilitatorBody, parsed). */
interface FacilitatorRequest {
  x402Version: number;
  paymentPayload: Record<string, unknown>;
  paymentRequirements: Record<string, unknown>;
}

/** How long a settle waits for the settlement of the same authorization running elsewhere to commit. */
const RACE_WAIT_MS = 10_000;

/** Whether the request is an `upto` one (its requirements or the payload's accepted say so): this module answers it. */
export function isUptoRequest(request: FacilitatorRequest): boolean {
  const accepted = (request.paymentPayload as { accepted?: { scheme?: unknown } }).accepted;
  return request.paymentRequirements.scheme === UPTO || accepted?.scheme === UPTO;
}

/** The upto kinds of GET /x402/supported (v2 only), bound to the mode's facilitator address (upto.ts uptoFacilitator). */
export function uptoKinds(networks: PayableNetwork[], livemode: boolean) {
  const facilitatorAddress = uptoFacilitator(livemode);
  return networks.map((network) => ({
    x402Version: 2,
    scheme: UPTO,
    network: network.caip2,
    extra: { payTo: network.payTo, asset: network.asset, ...network.extra, facilitatorAddress, settles: true },
  }));
}

function refuse(reason: string, message: string, networkName = "", payer?: string): RefusedPayment {
  return { ok: false, reason, message, networkName, ...(payer ? { payer } : {}) };
}

/**
 * The requirements as this merchant's upto terms (its network, token and payTo; a whole number of cents), with the
 * amount in atomic units; `zero`: 0 is allowed (a settlement of nothing used).
 */
function termsOf(request: FacilitatorRequest, networks: PayableNetwork[], livemode: boolean, zero: boolean): UptoTerms | RefusedPayment {
  if (request.x402Version !== 2) return refuse("invalid_x402_version", "Scheme 'upto' is x402 v2 only.");
  const parsed = RequirementsV2.safeParse(request.paymentRequirements);
  if (!parsed.success) return refuse("invalid_payment_requirements", "Invalid paymentRequirements (x402 v2 PaymentRequirements).");
  const req = parsed.data;
  if (req.scheme !== UPTO) return refuse("invalid_upto_evm_scheme", "The payment is 'upto', the requirements are not.", req.network);
  const network = payableNetwork(networks, req.network, 2);
  if (!network)
    return refuse(
      "invalid_network",
      `Network '${req.network}' is not supported in ${livemode ? "live" : "test"} mode (${networks.map((n) => n.caip2).join(", ")}).`,
    );
  if (req.asset.toLowerCase() !== network.asset.toLowerCase())
    return refuse("invalid_payment_requirements", `Asset ${req.asset} is not USDC on ${network.caip2} (${network.asset}).`, req.network);
  if (req.payTo.toLowerCase() !== network.payTo.toLowerCase())
    return refuse(
      "invalid_payment_requirements",
      `payTo must be this merchant's address ${network.payTo} (GET /x402/supported).`,
      req.network,
    );
  const amount = BigInt(req.amount);
  const cents = amount / ATOMIC_PER_CENT;
  if (amount % ATOMIC_PER_CENT !== 0n || cents > BigInt(MAX_AMOUNT) || (!zero && amount === 0n))
    return refuse(
      "invalid_payment_requirements",
      `The amount ${req.amount} is not a whole number of cents (multiples of 10000 atomic USDC units) up to ${MAX_AMOUNT}.`,
      req.network,
    );
  return { network: network.caip2, amount: req.amount, asset: network.asset, payTo: network.payTo };
}

function verifyRefusal(refused: RefusedPayment) {
  const payer = refused.payer ? { payer: refused.payer } : {};
  return { isValid: false, invalidReason: refused.reason, invalidMessage: refused.message, ...payer };
}

/**
 * POST /x402/verify of an upto payment: valid for its maximum. An authorization this merchant settled before with this
 * very payload is valid too (its settle answers the first result), and says so: `extensions.replayed` and the
 * PaymentIntent, so that a resource server does not serve it again (the SDK answers already_redeemed).
 */
export async function verifyUptoX402(db: Db, principal: Caller, request: FacilitatorRequest) {
  const networks = await payableNetworks(db, principal.merchantId, principal.livemode);
  const terms = termsOf(request, networks, principal.livemode, false);
  if ("ok" in terms) return verifyRefusal(terms);
  const facilitator = uptoFacilitator(principal.livemode);
  const check = { networks, paymentPayload: request.paymentPayload, requirements: terms, facilitator, paidBefore: true };
  const payment = await checkUptoPayment(check);
  if (!payment.ok) return verifyRefusal(payment);
  const before = await uptoSettledBefore(db, principal, payment, payloadHashOf(request.paymentPayload));
  if (before?.kind === "settled")
    return { isValid: true, payer: payment.payer, extensions: { paymentIntentId: before.paymentIntentId, replayed: true } };
  if (before?.kind === "refused") return verifyRefusal(before.refusal);
  // Live: the official scheme's checks against the chain too (Permit2 allowance, balance, nonce, simulation).
  const refused = uptoDeadlineRefusal(payment) ?? (principal.livemode ? await verifyUptoOnChain(payment, request) : null);
  return refused ? verifyRefusal(refused) : { isValid: true, payer: payment.payer };
}

/** POST /x402/settle of an upto payment: `paymentRequirements.amount` is what was used, captured once. */
export async function settleUptoX402(principal: Caller, request: FacilitatorRequest) {
  const networks = await payableNetworks(getDb(), principal.merchantId, principal.livemode);
  const terms = termsOf(request, networks, principal.livemode, true);
  if ("ok" in terms) return settleRefusal(terms);
  // The authorization against its own maximum, as the official settle verifies it; then the amount against that.
  const authorization = UptoEvmPayload.safeParse((request.paymentPayload as { payload?: unknown }).payload);
  const maximum = authorization.success ? authorization.data.permit2Authorization.permitted.amount : terms.amount;
  const requirements = { ...terms, amount: maximum };
  const facilitator = uptoFacilitator(principal.livemode);
  const payment = await checkUptoPayment({ networks, paymentPayload: request.paymentPayload, requirements, facilitator, paidBefore: true });
  if (!payment.ok) return settleRefusal(payment);
  if (BigInt(terms.amount) > BigInt(maximum))
    return settleRefusal(
      refuse(
        UPTO_SETTLEMENT_EXCEEDS,
        `The settlement ${terms.amount} is above the authorized maximum ${maximum}; nothing was charged.`,
        payment.networkName,
        payment.payer,
      ),
    );
  const cents = Number(BigInt(terms.amount) / ATOMIC_PER_CENT);
  const signed = { paymentPayload: request.paymentPayload, paymentRequirements: request.paymentRequirements };
  const settled = await settleOnce(principal, payment, cents, payloadHashOf(request.paymentPayload), signed).catch((err: unknown) => {
    throw new SettlementFailed(err, payment.networkName, payment.payer);
  });
  if (settled.kind === "refused") return settleRefusal(settled.refusal);
  if (settled.kind === "busy") throw new AnswerPendingError(null);
  if (settled.kind === "pending") {
    const message = `The transaction ${settled.transaction || "(being sent)"} is not confirmed yet; settle the same payment again to learn its outcome.`;
    return { ...failedSettleResponse(SETTLEMENT_PENDING, message, payment.networkName, payment.payer), transaction: settled.transaction };
  }
  // The transaction: the chain's in live mode, the PaymentIntent's id in test mode (no chain).
  const transaction = settled.transaction ?? settled.paymentIntentId ?? "";
  const response = { success: true, transaction, network: payment.networkName, payer: payment.payer };
  if (settled.paymentIntentId === null) return { ...response, amount: settled.amount };
  const paid = { paymentIntentId: settled.paymentIntentId, payer: payment.payer, network: payment.network.caip2 };
  const receipts = await settleReceipts(getDb(), { ...paid, transaction, resourceUrl: null });
  const replayed = settled.replayed ? { replayed: true } : {};
  return { ...response, amount: settled.amount, extensions: { paymentIntentId: settled.paymentIntentId, ...replayed, ...receipts } };
}

/**
 * Settled now, or its first result; past its deadline only the first result (never a new charge). A settlement of the
 * same authorization racing this one is waited for, so that its duplicate gets the same answer, never "used".
 */
async function settleOnce(
  principal: Caller,
  payment: VerifiedUpto,
  cents: number,
  payloadHash: string,
  signed: SignedPayment,
): Promise<UptoSettlement> {
  const late = uptoDeadlineRefusal(payment);
  if (late) {
    const again = await uptoSettledBefore(getDb(), principal, payment, payloadHash);
    return again?.kind === "settled" ? again : { kind: "refused", refusal: late };
  }
  const sale = { name: payment.description || payment.resourceUrl || "x402 upto payment" };
  const deadline = Date.now() + RACE_WAIT_MS;
  for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
    const settled =
      principal.livemode && cents > 0
        ? uptoOfChain(await settleUptoOnChain({ merchant: principal, payment, cents, payloadHash, sale, signed }), cents)
        : await settleUptoNow(principal, payment, cents, payloadHash, sale);
    if (settled.kind !== "busy" || Date.now() > deadline) return settled;
    await sleep(pause);
  }
}

function settleRefusal(refused: RefusedPayment) {
  return failedSettleResponse(refused.reason, refused.message, refused.networkName, refused.payer);
}

/** A live settlement as the facilitator's answer reads it (null: another request is claiming it right now). */
function uptoOfChain(settled: ChainSettlement | null, cents: number): UptoSettlement {
  if (settled === null) return { kind: "busy" };
  if (settled.kind !== "settled") return settled;
  const { paymentIntentId, transaction, replayed } = settled;
  return { kind: "settled", paymentIntentId, amount: centsToAtomic(cents).toString(), replayed, transaction };
}
