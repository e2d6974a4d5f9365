// x402's part of a usage-priced (`upto`) hosted resource (docs/x402.md, "Usage-priced resources"), for the metered
// sale (lib/paid-sale/sell-metered.ts): the v2 payment header checked against the resource's maximum (upto.ts), held,
// captured at the usage's price, and the receipt: PAYMENT-RESPONSE with the settled `amount` (atomic units), as the
// official upto facilitator's SettleResponse has it. Live mode: verified against the chain before the forward, and
// the amount used settled on it (settle-upto-on-chain.ts); the receipt's transaction is the chain's.
import { getDb } from "../db";
import { SettlementPendingError, UpstreamError } from "../errors";
import type { PayableNetwork } from "../chains/payable-networks";
import { paidResourceUrl } from "../paid-resources/paid-content";
import type { Sale, Settled } from "../paid-sale/sale-protocol";
import type { MeteredProtocol } from "../paid-sale/sell-metered";
import { encodeHeader } from "./encoding";
import { centsToAtomic } from "./networks";
import { settleReceipts } from "./receipts";
import { payloadHashOf } from "./replays";
import type { ChainSettlement, SignedPayment } from "./settle-on-chain";
import { captureUpto, holdUpto, releaseUpto, settleUptoZero } from "./settle-upto";
import { settleHeldUptoOnChain, verifyUptoOnChain } from "./settle-upto-on-chain";
import { checkUptoPayment, uptoFacilitator, uptoRequirements, type VerifiedUpto } from "./upto";

interface Envelope {
  version: 1 | 2;
  payload: object;
}
interface Refusal {
  error: string;
  message: string;
}
interface UptoPayment {
  verified: VerifiedUpto;
  payloadHash: string;
  /** What the payer sent, with the requirements at the maximum (live mode settles it whole, at the amount used). */
  signed: SignedPayment & { paymentRequirements: { amount: string } };
}

const RESPONSE_HEADERS = ["PAYMENT-RESPONSE", "X-PAYMENT-RESPONSE"] as const;

/** The metered protocol of x402 upto, with serve-resource.ts's networks of the sale and its 402. */
export function uptoSale(deps: {
  networksOf: (sale: Sale) => PayableNetwork[];
  refuse: (sale: Sale, refusal: Refusal) => Response;
}): MeteredProtocol<Envelope, UptoPayment, Refusal> {
  return {
    async verify(sale, { version, payload }, paidBefore) {
      if (version !== 2) return refused("invalid_x402_version", "Scheme 'upto' is paid with x402 v2 (PAYMENT-SIGNATURE).");
      const all = uptoRequirements(sale.resource, deps.networksOf(sale));
      const named = (payload as { accepted?: { network?: unknown } }).accepted?.network;
      const requirements = all.find((r) => r.network === named) ?? all[0];
      const facilitator = uptoFacilitator(sale.resource.livemode);
      const check = { networks: deps.networksOf(sale), paymentPayload: payload, requirements, facilitator, paidBefore };
      const verified = await checkUptoPayment(check);
      if (!verified.ok) return refused(verified.reason, verified.message);
      const signed = { paymentPayload: payload, paymentRequirements: requirements };
      // Live: the official scheme's checks against the chain before the merchant's server is asked (nothing written yet).
      const onChain = sale.resource.livemode && !paidBefore ? await verifyUptoOnChain(verified, signed) : null;
      if (onChain) return refused(onChain.reason, onChain.message);
      return { ok: true, value: { verified, payloadHash: payloadHashOf(payload), signed } };
    },
    async hold({ resource }, { verified, payloadHash }) {
      const scope = { merchantId: resource.merchantId, livemode: resource.livemode };
      const held = await holdUpto(scope, verified, payloadHash);
      return "paymentIntentId" in held ? { ok: true, value: held } : refused(held.reason, held.message);
    },
    release: (_sale, { verified }) => releaseUpto(verified),
    async capture({ resource }, { verified, payloadHash, signed }, hold, amount, record) {
      if (amount === 0) {
        await settleUptoZero(verified);
        return null;
      }
      const scope = { merchantId: resource.merchantId, livemode: resource.livemode };
      const sale = { paidResourceId: resource.id, name: resource.name, inClaim: record };
      if (resource.livemode) {
        const atAmount = { ...signed, paymentRequirements: { ...signed.paymentRequirements, amount: centsToAtomic(amount).toString() } };
        const live = { merchant: scope, payment: verified, cents: amount, payloadHash, sale, signed: atAmount };
        return onChainSettled(await settleHeldUptoOnChain(live, hold), verified);
      }
      const captured = await captureUpto(scope, verified, hold, amount, sale);
      return { paymentIntentId: captured.paymentIntentId, payer: verified.payer };
    },
    async receipt({ resource }, { verified }, settled, amount) {
      const response = {
        success: true,
        transaction: settled?.onChain?.transaction ?? settled?.paymentIntentId ?? "",
        network: verified.networkName,
        payer: verified.payer,
        amount: centsToAtomic(amount).toString(),
      };
      const paid = settled && {
        paymentIntentId: settled.paymentIntentId,
        payer: verified.payer,
        network: verified.network.caip2,
        transaction: settled.onChain?.transaction ?? settled.paymentIntentId,
      };
      const extensions = paid ? await settleReceipts(getDb(), { ...paid, resourceUrl: paidResourceUrl("x402", resource.id) }) : {};
      const receipt = encodeHeader({ ...response, extensions });
      return Object.fromEntries(RESPONSE_HEADERS.map((name) => [name, receipt]));
    },
    refuse: deps.refuse,
  };
}

/** A live settlement as the metered sale takes it: settled (the chain's transaction), or thrown (pending: 503; refused: 502). */
function onChainSettled(settled: ChainSettlement, verified: VerifiedUpto): Settled {
  if (settled.kind === "pending") throw new SettlementPendingError(settled.paymentIntentId, settled.transaction);
  if (settled.kind === "refused") {
    const error = new UpstreamError(`The chain did not settle the payment (${settled.refusal.reason}); nothing was charged.`);
    Object.assign(error.details, { reason: settled.refusal.reason, transaction: settled.transaction });
    throw error;
  }
  return { paymentIntentId: settled.paymentIntentId, payer: verified.payer, onChain: { transaction: settled.transaction } };
}

function refused(error: string, message: string): { ok: false; refusal: Refusal } {
  return { ok: false, refusal: { error, message } };
}
