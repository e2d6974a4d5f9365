// The answers a hosted paid resource gave (paid_answers; docs/x402.md "Lost answers"): one row per payment, written in
// the transaction that settles it, so that the same credential sent again (a lost answer, a timed-out client) is
// answered as the first time for PAID_REPLAY_WINDOW_SECONDS, never charged or forwarded twice.
//   - The row is keyed by the PaymentIntent and found by (resource, hash of the exact credential): only the very
//     payment that paid unlocks it.
//   - One request makes the answer: the one that takes the row's lease (an atomic UPDATE). Others wait for it; a
//     lease that ran out with no answer (its process died) is taken over.
//   - The body is sealed with SECRETS_ENCRYPTION_KEY; a resource with `replayable: false` keeps none.
//   - A failed forward that was refunded keeps its error, answered again as the same error. One that could not be
//     refunded (paid on chain to the merchant) gives its lease back: the same payment forwards again.
import { closeWith, sqlIn, statement, type Db } from "../db";
import { openBytes, sealBytes } from "../crypto/secret-box";
import { env } from "../env";
import { randomBase62 } from "../ids";

/** How long one request may take to make an answer before another takes over (the forward's time-out, and margin). */
export const ANSWER_LEASE_MS = () => env.WEBHOOK_TIMEOUT_MS + 20_000;

/** A paid answer as kept: the content with its receipt headers, the error of a refunded forward, or nothing kept. */
export type PaidAnswer =
  | { kind: "content"; status: number; contentType: string | null; headers: Record<string, string>; body: Buffer }
  | { kind: "error"; message: string; details: Record<string, unknown> }
  | { kind: "not_stored" };

/** A payment of the resource found by its credential: its PaymentIntent and whether the charge is settled (captured). */
export interface PaidSale {
  paymentIntentId: string;
  /** The PaymentIntent is captured (or refunded since): the sale stands and only its answer is due. */
  captured: boolean;
}

/** A payment of the resource, as the door names it: its PaymentIntent and the hash of the exact credential. */
export interface PaidSaleKey {
  paymentIntentId: string;
  paidResourceId: string;
  credentialHash: string;
}

/** A lease's token: random base62 from the ids' pooled bytes (lib/ids.ts), not a system call per sale. */
const leaseToken = () => randomBase62(24);

/**
 * The right to make the payment's answer: its row written (answerable for the replay window) or found, and a token
 * when no answer exists and nobody holds a running lease. In the settlement's transaction it always succeeds.
 */
const LEASE_ANSWER = statement(
  "paid_answer_lease",
  `INSERT INTO paid_answers (payment_intent_id, paid_resource_id, credential_hash, forward_token, forward_until, expires_at)
   VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::float8), now() + make_interval(secs => $6::float8))
   ON CONFLICT (payment_intent_id) DO UPDATE SET forward_token = excluded.forward_token, forward_until = excluded.forward_until
    WHERE paid_answers.answered_at IS NULL AND (paid_answers.forward_until IS NULL OR paid_answers.forward_until <= now())
   RETURNING forward_token AS token`,
);

export async function leaseAnswer(db: Db, sale: PaidSaleKey): Promise<string | null> {
  const token = leaseToken();
  const { paymentIntentId, paidResourceId, credentialHash } = sale;
  const window = env.PAID_REPLAY_WINDOW_SECONDS;
  const leased = await sqlIn(db).rows<{ token: string }>(LEASE_ANSWER, [
    paymentIntentId,
    paidResourceId,
    credentialHash,
    token,
    ANSWER_LEASE_MS() / 1000,
    window,
  ]);
  return leased[0]?.token ?? null;
}

/**
 * The lease taken in the sale's own transaction (the door's record of it): its closing write (lib/db.ts closeWith), run
 * last with COMMIT. It takes the row over from any earlier lease: only this transaction captures the payment, so
 * only it can make the paid answer (an earlier lease is an approval's wait, given back once it answered). A lease not
 * taken rolls the sale back. The token is known before the statement runs.
 */
const LEASE_IN_SALE = statement(
  "paid_answer_lease_in_sale",
  `INSERT INTO paid_answers (payment_intent_id, paid_resource_id, credential_hash, forward_token, forward_until, expires_at)
   VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::float8), now() + make_interval(secs => $6::float8))
   ON CONFLICT (payment_intent_id) DO UPDATE SET forward_token = excluded.forward_token, forward_until = excluded.forward_until
    WHERE paid_answers.answered_at IS NULL
   RETURNING 1`,
);

export async function leaseAnswerInSale(tx: Db, sale: PaidSaleKey): Promise<string> {
  const token = leaseToken();
  const values = [
    sale.paymentIntentId,
    sale.paidResourceId,
    sale.credentialHash,
    token,
    ANSWER_LEASE_MS() / 1000,
    env.PAID_REPLAY_WINDOW_SECONDS,
  ];
  await closeWith(
    tx,
    { statement: LEASE_IN_SALE, values },
    `The answer's lease of PaymentIntent ${sale.paymentIntentId} was not taken in its sale.`,
  );
  return token;
}

/** The lease taken with the settlement, renewed once the payment stands (a live one waited on the chain): false if lost. */
export async function renewAnswerLease(db: Db, paymentIntentId: string, token: string): Promise<boolean> {
  const renewed = await db.$executeRaw`
    UPDATE paid_answers SET forward_until = now() + make_interval(secs => ${ANSWER_LEASE_MS() / 1000})
     WHERE payment_intent_id = ${paymentIntentId} AND forward_token = ${token} AND answered_at IS NULL`;
  return renewed === 1;
}

/** The lease given back with no answer (a forward that may be tried again with the same payment). */
export async function releaseAnswerLease(db: Db, paymentIntentId: string, token: string): Promise<void> {
  await db.$executeRaw`
    UPDATE paid_answers SET forward_until = NULL WHERE payment_intent_id = ${paymentIntentId} AND forward_token = ${token} AND answered_at IS NULL`;
}

/** The answer kept by the lease's holder (once); `keep: false` records only that it was given (replayable: false). */
const KEEP_ANSWER = statement(
  "paid_answer_keep",
  `UPDATE paid_answers
      SET status = $3, content_type = $4, headers = $5::jsonb, body_sealed = $6, error = $7::jsonb,
          not_stored = $8, answered_at = now(), forward_until = NULL
    WHERE payment_intent_id = $1 AND forward_token = $2 AND answered_at IS NULL`,
);

export async function keepAnswer(db: Db, paymentIntentId: string, token: string, answer: PaidAnswer, keep: boolean): Promise<void> {
  const content = answer.kind === "content" && keep ? answer : null;
  const error = answer.kind === "error" ? { message: answer.message, details: answer.details } : null;
  const notStored = answer.kind === "not_stored" || (answer.kind === "content" && !keep);
  await sqlIn(db).count(KEEP_ANSWER, [
    paymentIntentId,
    token,
    content?.status ?? null,
    content?.contentType ?? null,
    content ? JSON.stringify(content.headers) : null,
    content ? sealBytes(content.body) : null,
    error ? JSON.stringify(error) : null,
    notStored,
  ]);
}

/** The kept answer, or whether one is still being made (`leased`: someone holds a running lease). */
export async function readAnswer(db: Db, paymentIntentId: string): Promise<{ answer: PaidAnswer } | { answer: null; leased: boolean }> {
  const rows = await db.$queryRaw<
    {
      status: number | null;
      contentType: string | null;
      headers: Record<string, string> | null;
      body: Uint8Array | null;
      error: { message: string; details: Record<string, unknown> } | null;
      notStored: boolean;
      answered: boolean;
      leased: boolean;
    }[]
  >`
    SELECT status, content_type AS "contentType", headers, body_sealed AS body, error, not_stored AS "notStored",
           answered_at IS NOT NULL AS answered, coalesce(forward_until > now(), false) AS leased
      FROM paid_answers WHERE payment_intent_id = ${paymentIntentId}`;
  const row = rows[0];
  if (!row?.answered) return { answer: null, leased: row?.leased ?? false };
  if (row.error) return { answer: { kind: "error", ...row.error } };
  if (row.notStored || row.status === null || row.body === null) return { answer: { kind: "not_stored" } };
  const body = openBytes(row.body);
  return { answer: { kind: "content", status: row.status, contentType: row.contentType, headers: row.headers ?? {}, body } };
}

/** The tick's purge of answers past the replay window (bounded per run). */
export async function purgeExpiredPaidAnswers(db: Db): Promise<number> {
  return db.$executeRaw`
    DELETE FROM paid_answers WHERE payment_intent_id IN (
      SELECT payment_intent_id FROM paid_answers WHERE expires_at < now() ORDER BY expires_at LIMIT 1000)`;
}
