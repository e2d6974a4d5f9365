// x402's part of a usage-priced (`upto`) hosted resource (docs/x402.md, "Usage-priced resources"), for the metered
// sale (lib/paid-sale/sell-metered.ts): the v2 payment header checked against the resource's maximum (upto.ts), held,
// captured at the usage's price, and the receipt: PAYMENT-RESPONSE with the settled `amount` (atomic units), as the
// official upto facilitator's SettleResponse has it. Test mode only: live upto (Permit2 on chain) is refused (409).
import { getDb } from "../db";
import type { PayableNetwork } from "../chains/payable-networks";
import { paidResourceUrl } from "../paid-resources/paid-content";
import type { Sale } from "../paid-sale/sale-protocol";
import type { MeteredProtocol } from "../paid-sale/sell-metered";
import { encodeHeader } from "./encoding";
import { centsToAtomic } from "./networks";
import { settleReceipts } from "./receipts";
import { payloadHashOf } from "./replays";
import { captureUpto, holdUpto, releaseUpto, settleUptoZero } from "./settle-upto";
import { checkUptoPayment, uptoRequirements, type VerifiedUpto } from "./upto";

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
      const verified = await checkUptoPayment({ networks: deps.networksOf(sale), paymentPayload: payload, requirements, paidBefore });
      if (!verified.ok) return refused(verified.reason, verified.message);
      return { ok: true, value: { verified, payloadHash: payloadHashOf(payload) } };
    },
    async hold({ resource }, { verified, payloadHash }) {
      const scope = { merchantId: resource.merchantId, livemode: resource.livemode };
      const held = await holdUpto(scope, verified, payloadHash);
      return "paymentIntentId" in held ? { ok: true, value: held } : refused(held.reason, held.message);
    },
    release: (_sale, { verified }) => releaseUpto(verified),
    async capture({ resource }, { verified }, hold, amount, record) {
      if (amount === 0) {
        await settleUptoZero(verified);
        return null;
      }
      const scope = { merchantId: resource.merchantId, livemode: resource.livemode };
      const sale = { paidResourceId: resource.id, name: resource.name, inClaim: record };
      const captured = await captureUpto(scope, verified, hold, amount, sale);
      return { paymentIntentId: captured.paymentIntentId, payer: verified.payer };
    },
    async receipt({ resource }, { verified }, settled, amount) {
      const response = {
        success: true,
        transaction: settled?.paymentIntentId ?? "",
        network: verified.networkName,
        payer: verified.payer,
        amount: centsToAtomic(amount).toString(),
      };
      const paid = settled && {
        paymentIntentId: settled.paymentIntentId,
        payer: verified.payer,
        network: verified.network.caip2,
        transaction: settled.paymentIntentId,
      };
      const extensions = paid ? await settleReceipts(getDb(), { ...paid, resourceUrl: paidResourceUrl("x402", resource.id) }) : {};
      const receipt = encodeHeader({ ...response, extensions });
      return Object.fromEntries(RESPONSE_HEADERS.map((name) => [name, receipt]));
    },
    refuse: deps.refuse,
  };
}

function refused(error: string, message: string): { ok: false; refusal: Refusal } {
  return { ok: false, refusal: { error, message } };
}
