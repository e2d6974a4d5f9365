// The receipt of a captured PaymentIntent (docs/receipts.md): a compact JWS by the service's active key, signed
// once and stored. The first call signs and inserts it ON CONFLICT DO NOTHING, then every call (that one included)
// answers the stored row: concurrent first calls in any number of processes answer one and the same JWS, and no
// later call signs again (a rotation changes the key of new receipts only). Only a captured PaymentIntent (captured,
// settled, or refunded after its capture) has one: any other is 409 `not_captured`.
import { SignJWT } from "jose";
import { deferWrites, sqlIn, statement, type Db } from "../db";
import { ConflictError, NotFoundError } from "../errors";
import { Prisma, type PaymentIntent } from "../generated/prisma/client";
import { findPaymentIntent } from "../payments/find-payment-intent";
import { receiptClaims } from "./receipt-claims";
import { receiptMandateOf } from "./receipt-mandate";
import { selectList } from "../sql-model";
import { activeKeyRowMade, activeSigningKey, openedSigningKey, type ActiveKeyRow, type ServiceSigningKey } from "./signing-key";

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
  const jws = await sign(db, pi, key);
  // The row that won a concurrent first signing is the receipt: ours if inserted, else the one stored.
  const inserted = await sqlIn(db).rows<{ jws: string }>(INSERT_RECEIPT, [pi.id, key.kid, jws]);
  return inserted[0]?.jws ?? (await storedJws(db, pi.id))!;
}

async function sign(db: Db, pi: PaymentIntent, key: ServiceSigningKey): Promise<string> {
  return new SignJWT({ ...receiptClaims(pi, await receiptMandateOf(db, pi)) })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "JWT" })
    .sign(key.privateKey);
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

/** A receipt's JWS with the key that signs the service's receipts now (x402's offer-receipt is signed by it too). */
export interface SignedReceipt {
  jws: string;
  key: ServiceSigningKey;
}

type RowWithKey = PaymentIntent & { storedJws: string | null; activeKid: string | null; activeKeyCiphertext: string | null };

async function readWithKey(db: Db, paymentIntentId: string) {
  const [row] = await sqlIn(db).rows<RowWithKey>(RECEIPT_WITH_KEY, [paymentIntentId]);
  if (!row) return null;
  const { storedJws: stored, activeKid, activeKeyCiphertext, ...pi } = row;
  const keyRow: ActiveKeyRow | null = activeKid ? { kid: activeKid, privateJwkCiphertext: activeKeyCiphertext } : null;
  return { pi, stored, keyRow };
}

/**
 * receiptFor's JWS with the service's active key, for an answer that signs a receipt of its own too (x402's
 * offer-receipt): one statement reads the PaymentIntent, its stored receipt and the key; a first signing inserts.
 */
export async function receiptWithKey(db: Db, paymentIntentId: string): Promise<SignedReceipt> {
  const read = await readWithKey(db, paymentIntentId);
  if (!read) throw new NotFoundError("payment_intent", paymentIntentId);
  const key = await activeSigningKey(db, read.keyRow);
  return { jws: read.stored ?? (await signAndStore(db, read.pi, key)), key };
}

// No RETURNING: it runs deferred, inside the transaction's next statement.
const INSERT_RECEIPT_IN_SALE = statement(
  "receipt_insert_in_sale",
  "INSERT INTO receipts (payment_intent_id, kid, jws) VALUES ($1, $2, $3) ON CONFLICT (payment_intent_id) DO NOTHING",
);

/**
 * What a sale's own statements returned already, so that its receipt reads nothing more: the PaymentIntent as its
 * capture left it (the transition's row) and the active signing key's row (ACTIVE_KEY_TEXT in the sale's first statement;
 * null when no key is active yet).
 */
export interface SaleReads {
  paymentIntent: PaymentIntent;
  signingKey: ActiveKeyRow | null;
}

/**
 * The receipt signed inside the transaction that captured the PaymentIntent (the paid door's sale), its row written
 * with the transaction's next statement: it commits with the sale, and the paid answer waits for no statement, and no
 * commit, of its own after the sale's. No other caller can have stored one first: until this transaction commits,
 * every other sees the PaymentIntent uncaptured (409 `not_captured`). The deployment's first key, when none is active
 * yet, is made here too. Null, and the receipt is made after the commit as before, when the PaymentIntent is not
 * captured in this transaction (a live payment still on chain, a decline, an approval awaited) or the key could not
 * sign (its sealed half does not open): a receipt never fails a sale. `known`: the sale's reads (SaleReads), which spare
 * the statement that reads the PaymentIntent and the key.
 */
export async function signReceiptInSale(tx: Db, paymentIntentId: string, known?: SaleReads): Promise<SignedReceipt | null> {
  const read =
    known?.paymentIntent.id === paymentIntentId
      ? { pi: known.paymentIntent, stored: null, keyRow: known.signingKey }
      : await readWithKey(tx, paymentIntentId);
  if (!read || !hasReceipt(read.pi.status) || !read.pi.capturedAt) return null;
  const row = await activeKeyRowMade(tx, read.keyRow); // a statement's error fails the sale, as any of its statements' would
  try {
    const key = await openedSigningKey(row);
    const jws = read.stored ?? (await sign(tx, read.pi, key));
    if (!read.stored) await deferWrites(tx, [{ statement: INSERT_RECEIPT_IN_SALE, values: [paymentIntentId, key.kid, jws] }]);
    return { jws, key };
  } catch (err) {
    console.warn(`receipt of ${paymentIntentId} not signed in its sale:`, err instanceof Error ? err.message : err);
    return null;
  }
}
