// The receipts an x402 settle response carries in its `extensions` (docs/receipts.md, "On the wire"): the
// `offer-receipt` extension's own receipt (@x402/extensions createReceiptJWS: resource, payer, network, transaction,
// signed by the service key named `did:web:<host>#<kid>`, resolved from /.well-known/did.json), and the service's
// receipt of the PaymentIntent (`service-receipt`: { jws }, the same JWS GET /v1/payment_intents/:id/receipt gives).
// The payment stands whatever happens here: a receipt that cannot be signed now is left out (and can be fetched later).
import { createReceiptJWS, OFFER_RECEIPT } from "@x402/extensions/offer-receipt";
import type { Db } from "../db";
import { offerReceiptSignerOf } from "../receipts/offer-receipt-signer";
import { receiptFor, receiptWithKey, type SignedReceipt } from "../receipts/receipt-for";

export const SERVICE_RECEIPT = "service-receipt";

export interface SettledPayment {
  paymentIntentId: string;
  payer: string;
  /** CAIP-2. */
  network: string;
  transaction: string;
  /** The resource paid for (a hosted resource); null at the facilitator, which carries only the service's receipt. */
  resourceUrl: string | null;
}

/** `signed`: the service's receipt signed in the sale's transaction (the paid door), else read or signed here. */
export async function settleReceipts(db: Db, paid: SettledPayment, signed: SignedReceipt | null = null): Promise<Record<string, unknown>> {
  try {
    if (!paid.resourceUrl) return { [SERVICE_RECEIPT]: { jws: signed?.jws ?? (await receiptFor(db, paid.paymentIntentId)) } };
    // Both receipts by the same key, read with the PaymentIntent and its stored receipt in one statement.
    const { jws, key } = signed ?? (await receiptWithKey(db, paid.paymentIntentId));
    const service = { [SERVICE_RECEIPT]: { jws } };
    const { resourceUrl, payer, network, transaction } = paid;
    const receipt = await createReceiptJWS({ resourceUrl, payer, network, transaction }, offerReceiptSignerOf(key));
    return { [OFFER_RECEIPT]: { info: { receipt } }, ...service };
  } catch (err) {
    console.warn(`[x402] receipts of ${paid.paymentIntentId} not signed now:`, err instanceof Error ? err.message : err);
    return {};
  }
}
