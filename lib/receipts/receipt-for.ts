// The receipt of a captured PaymentIntent (docs/receipts.md): a compact JWS by the service's active key, signed
// once and stored. The first call signs and inserts it ON CONFLICT DO NOTHING, then every call (that one included)
// answers the stored row: concurrent first calls in any number of processes answer one and the same JWS, and no
// later call signs again (a rotation changes the key of new receipts only). Only a captured PaymentIntent (captured,
// settled, or refunded after its capture) has one: any other is 409 `not_captured`.
import { SignJWT } from "jose";
import { sqlIn, statement, type Db } from "../db";
import { ConflictError, NotFoundError } from "../errors";
import { Prisma, type PaymentIntent } from "../generated/prisma/client";
import { findPaymentIntent } from "../payments/find-payment-intent";
import { receiptClaims } from "./receipt-claims";
import { receiptMandateOf } from "./receipt-mandate";
import { selectList } from "../sql-model";
import { activeSigningKey, type ActiveKeyRow, type ServiceSigningKey } from "./signing-key";

const CAPTURED = new Set(["captured", "settled", "refunded"]);

/** Whether a PaymentIntent of this status has a receipt (it was captured). */
export function hasReceipt(status: string): boolean {
  return CAPTURED.has(status);
}

const STORED_JWS = statement("receipt_jws", "SELECT jws FROM receipts WHERE payment_intent_id = $1");
const INSERT_RECEIPT = statement(
  "receipt_insert",
  "INSERT INTO receipts (payment_intent_id, kid, jws) VALUES ($1, $2, $3) ON CONFLICT (payment_intent_id) DO NOTHING RETURNING jws",
);

async function storedJws(db: Db, paymentIntentId: string): Promise<string | null> {
  const [row] = await sqlIn(db).rows<{ jws: string }>(STORED_JWS, [paymentIntentId]);
  return row?.jws ?? null;
}

/** The receipt of a PaymentIntent already read (its caller has checked whose it is). */
export async function receiptOf(db: Db, pi: PaymentIntent): Promise<string> {
  return (await storedJws(db, pi.id)) ?? signAndStore(db, pi, await activeSigningKey(db));
}

/** The first signing of a PaymentIntent's receipt (none stored when its caller read): stored, or the one that won. */
async function signAndStore(db: Db, pi: PaymentIntent, key: ServiceSigningKey): Promise<string> {
  if (!hasReceipt(pi.status) || !pi.capturedAt)
    throw new ConflictError(`PaymentIntent ${pi.id} is ${pi.status}: only a captured payment has a receipt.`, {
      reason: "not_captured",
      status: pi.status,
    });
  const jws = await new SignJWT({ ...receiptClaims(pi, await receiptMandateOf(db, pi)) })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "JWT" })
    .sign(key.privateKey);
  // The row that won a concurrent first signing is the receipt: ours if inserted, else the one stored.
  const inserted = await sqlIn(db).rows<{ jws: string }>(INSERT_RECEIPT, [pi.id, key.kid, jws]);
  return inserted[0]?.jws ?? (await storedJws(db, pi.id))!;
}

/**
 * The compact JWS of a captured PaymentIntent's receipt, the same on every call: for the protocol adapters, which
 * carry it on their own wire (x402's `extensions["service-receipt"].jws`, MPP's `serviceReceipt`, A2A, AP2, ACP).
 * 404 for an unknown PaymentIntent, 409 `not_captured` for one not captured.
 */
export async function receiptFor(db: Db, paymentIntentId: string): Promise<string> {
  const pi = await findPaymentIntent(db, paymentIntentId);
  if (!pi) throw new NotFoundError("payment_intent", paymentIntentId);
  return receiptOf(db, pi);
}

// The PaymentIntent, its stored receipt and the active key's row in one round trip (three statements otherwise).
const RECEIPT_WITH_KEY = statement(
  "receipt_with_key",
  `SELECT ${selectList(Prisma.PaymentIntentScalarFieldEnum, "pi")}, r.jws AS "storedJws", k.kid AS "activeKid",
          k.private_jwk_ciphertext AS "activeKeyCiphertext"
     FROM payment_intents pi
     LEFT JOIN receipts r ON r.payment_intent_id = pi.id
     LEFT JOIN (SELECT kid, private_jwk_ciphertext FROM service_signing_keys WHERE active LIMIT 1) k ON true
    WHERE pi.id = $1`,
);

/**
 * receiptFor's JWS with the service's active key, for an answer that signs a receipt of its own too (x402's
 * offer-receipt): one statement reads the PaymentIntent, its stored receipt and the key; a first signing inserts.
 */
export async function receiptWithKey(db: Db, paymentIntentId: string): Promise<{ jws: string; key: ServiceSigningKey }> {
  type Row = PaymentIntent & { storedJws: string | null; activeKid: string | null; activeKeyCiphertext: string | null };
  const [row] = await sqlIn(db).rows<Row>(RECEIPT_WITH_KEY, [paymentIntentId]);
  if (!row) throw new NotFoundError("payment_intent", paymentIntentId);
  const { storedJws: stored, activeKid, activeKeyCiphertext, ...pi } = row;
  const read: ActiveKeyRow | null = activeKid ? { kid: activeKid, privateJwkCiphertext: activeKeyCiphertext } : null;
  const key = await activeSigningKey(db, read);
  return { jws: stored ?? (await signAndStore(db, pi, key)), key };
}
