// The mandate a payment was made under, as its receipt names it (docs/receipts.md "Mandate"): an AP2 v0.2 payment
// by the hashes of its closed Payment and Checkout Mandates (the `reference` of AP2's own receipts) and the open
// mandate it counted against; an AP2 v0.1 payment by its PaymentMandate's id and the CartMandate's jti and hash.
// Read from the rows the payment's own transaction wrote (never from the PaymentIntent's editable metadata).
import type { Db } from "../db";

export type ReceiptMandate =
  | {
      protocol: "ap2";
      version: "0.2";
      checkoutId: string;
      paymentMandateReference: string;
      checkoutMandateReference: string;
      openMandateId?: string;
    }
  | { protocol: "ap2"; version: "0.1"; paymentMandateId: string; cartMandateId: string; cartHash: string };

/** The mandate of an AP2 payment, or null (another source, or none recorded). */
export async function receiptMandateOf(db: Db, pi: { id: string; source: string }): Promise<ReceiptMandate | null> {
  if (pi.source !== "ap2") return null;
  const [v02] = await db.$queryRaw<{ id: string; pay: string | null; co: string | null; open: string | null }[]>`
    SELECT id, payment_mandate_ref AS pay, checkout_mandate_ref AS co, open_mandate_id AS open
      FROM ap2_checkouts WHERE payment_intent_id = ${pi.id} LIMIT 1`;
  if (v02?.pay && v02.co)
    return {
      protocol: "ap2",
      version: "0.2",
      checkoutId: v02.id,
      paymentMandateReference: v02.pay,
      checkoutMandateReference: v02.co,
      ...(v02.open ? { openMandateId: v02.open } : {}),
    };
  const [v01] = await db.$queryRaw<{ jti: string; pm: string | null; hash: string }[]>`
    SELECT jti, payment_mandate_id AS pm, cart_hash AS hash FROM ap2_mandates WHERE payment_intent_id = ${pi.id} LIMIT 1`;
  if (v01?.pm) return { protocol: "ap2", version: "0.1", paymentMandateId: v01.pm, cartMandateId: v01.jti, cartHash: v01.hash };
  return null;
}
