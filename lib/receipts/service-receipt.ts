// The receipt as a protocol's answer carries it, `{ serviceReceipt: <jws> }` (A2A's x402 receipts, AP2's
// PaymentReceipt, MPP's Payment-Receipt): spread into the answer of a payment that has just been captured. The
// payment stands whatever happens here, so a receipt that cannot be signed now (the database unreachable for a
// moment) leaves the field out rather than failing the paid answer; GET /v1/payment_intents/:id/receipt gives
// the same JWS later.
import type { Db } from "../db";
import { receiptFor } from "./receipt-for";

export async function serviceReceiptOf(db: Db, paymentIntentId: string): Promise<{ serviceReceipt?: string }> {
  try {
    return { serviceReceipt: await receiptFor(db, paymentIntentId) };
  } catch (err) {
    console.warn(`receipt of ${paymentIntentId} not signed now:`, err instanceof Error ? err.message : err);
    return {};
  }
}
