// A PaymentIntent by id, in a prepared statement (the charge engine's hot path: lib/sql-model.ts). The caller
// checks whose it is.
import { sqlIn, statement, type Db } from "../db";
import { Prisma, type PaymentIntent } from "../generated/prisma/client";
import { selectList } from "../sql-model";

const FIND_PAYMENT_INTENT = statement(
  "payment_intent_find",
  `SELECT ${selectList(Prisma.PaymentIntentScalarFieldEnum)} FROM payment_intents WHERE id = $1`,
);

export async function findPaymentIntent(db: Db, id: string): Promise<PaymentIntent | null> {
  const [pi] = await sqlIn(db).rows<PaymentIntent>(FIND_PAYMENT_INTENT, [id]);
  return pi ?? null;
}

// With whether a charge of it is pending (an attempt a crashed request left): read under its owner's lock, in a
// statement that starts after the lock was taken (so it sees every attempt committed before), it is as good as the
// recovery's own query, one round trip fewer.
const READ_FOR_CHARGE = statement(
  "payment_intent_for_charge",
  `SELECT ${selectList(Prisma.PaymentIntentScalarFieldEnum)},
          EXISTS (SELECT 1 FROM payment_attempts WHERE payment_intent_id = $1 AND status = 'pending') AS "pendingAttempt"
     FROM payment_intents WHERE id = $1`,
);

/** A PaymentIntent about to be charged, read with its owner locked, and whether an attempt of it is pending. */
export async function readPaymentIntentForCharge(db: Db, id: string): Promise<{ pi: PaymentIntent; pendingAttempt: boolean }> {
  const [row] = await sqlIn(db).rows<PaymentIntent & { pendingAttempt: boolean }>(READ_FOR_CHARGE, [id]);
  if (!row) throw new Error(`PaymentIntent ${id} does not exist`);
  const { pendingAttempt, ...pi } = row;
  return { pi, pendingAttempt };
}

/** One that must exist (its id was read from a row that references it). */
export async function readPaymentIntent(db: Db, id: string): Promise<PaymentIntent> {
  const pi = await findPaymentIntent(db, id);
  if (!pi) throw new Error(`PaymentIntent ${id} does not exist`);
  return pi;
}
