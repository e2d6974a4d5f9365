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

/** One that must exist (its id was read from a row that references it). */
export async function readPaymentIntent(db: Db, id: string): Promise<PaymentIntent> {
  const pi = await findPaymentIntent(db, id);
  if (!pi) throw new Error(`PaymentIntent ${id} does not exist`);
  return pi;
}
