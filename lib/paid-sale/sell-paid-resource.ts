// The one door of a hosted paid resource (/x402/r/:id, /mpp/r/:id; docs/x402.md, docs/mpp.md): a composition of the
// request pipeline (the protocol's error shape) whose handler runs a sale's steps once for every protocol, in order:
//   1. the resource (active, by id alone: its row says whose and which mode; else 404), read with the credential's
//      earlier sale and the client IP's token (else 429) in one statement (limit-and-find.ts), its method (else 405,
//      before the body is read), whether the protocol sells it;
//   2. the credential, parsed from the request before the read (HEAD never pays: it gets the terms), answered only
//      now when it is missing or malformed; the same credential paid before (a lost answer, a retry) gets the answer
//      it got, kept for PAID_REPLAY_WINDOW_SECONDS (paid-resources/paid-answers.ts), never a second charge or
//      forward; else it is verified, nothing written;
//   3. a body to forward read and size-checked, before anything is charged;
//   4. the credential spent once and the captured PaymentIntent (the protocol's `settle`, in its transactions);
//   5. only after it committed, the paid content (the resource's `content`, or the request forwarded to the
//      merchant's `url`) with the protocol's receipt, made by one request (the answer's lease, taken with the
//      settlement) and kept; a retry meanwhile waits for it. A forward that fails (5xx, network error, time-out, too
//      large) is refunded and answered 502 `forward_failed`: the payer keeps nothing it did not get. Money paid
//      on chain to the merchant's own wallet cannot be refunded here: 502 `forward_failed` with the transaction,
//      and the same payment sent again is forwarded again.
// The protocol (sale-protocol.ts) says how its credential reads, verifies, settles, what the receipt and the
// refusals are; it never moves money itself.
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { getDb, transaction, type Db } from "../db";
import { env } from "../env";
import { AnswerPendingError, ConflictError, NotFoundError, UpstreamError } from "../errors";
import type { PaidResource } from "../generated/prisma/client";
import { pipeline, type Authenticate } from "../http/pipeline";
import { limitByClientIp } from "../http/rate-limit-step";
import { readBodyText } from "../http/read-body";
import { isSmallAnswer } from "../http/small-answer";
import { forwardPaidRequest } from "../paid-resources/forward-request";
import { allowedMethods, paidContentResponse, redirectToContentOrigin } from "../paid-resources/paid-content";
import {
  ANSWER_LEASE_MS,
  keepAnswer,
  leaseAnswer,
  leaseAnswerInSale,
  readAnswer,
  releaseAnswerLease,
  renewAnswerLease,
  type PaidAnswer,
} from "../paid-resources/paid-answers";
import { signReceiptInSale, type SaleReads, type SignedReceipt } from "../receipts/receipt-for";
import { limitAndFindResource } from "./limit-and-find";
import { createRefund } from "../refunds/create-refund";
import type { Sale, SaleProtocol, Settled } from "./sale-protocol";

/** The route handler of a protocol's /<protocol>/r/:id (every method: the resource answers its own). */
export function paidResourceRoute<C, P, R>(protocol: SaleProtocol<C, P, R>) {
  const steps = { authenticate: limitedByTheDoor, claims: false, headers: protocol.headers, errorResult: protocol.errorResult };
  return pipeline(steps, { rawInput: true, transaction: false }, async ({ req, params, headers }) => {
    const redirect = redirectToContentOrigin(req);
    if (!redirect) return sellPaidResource(protocol, req, params.id ?? "", headers);
    await limitByClientIp(req, headers);
    return redirect;
  });
}

/** No credential; the client IP's token is taken by the door's first statement, with the resource (limit-and-find.ts). */
const limitedByTheDoor: Authenticate<undefined> = async () => ({ caller: undefined });

export async function sellPaidResource<C, P, R>(protocol: SaleProtocol<C, P, R>, req: Request, id: string, headers: Headers) {
  // The credential is parsed from the request alone (HEAD never pays: it gets the terms, whatever it carries), so that
  // the resource and the credential's earlier sale (a lost answer's retry) are read in one statement. What is wrong
  // with it is answered after the resource's own refusals (404, 405, 409), as before.
  const { credential, presented } = await readCredential(protocol, req, headers);
  const found = await limitAndFindResource(req, headers, id, presented?.hash ?? null);
  if (!found) throw new NotFoundError("paid_resource", id);
  const { resource, earlier } = found;
  const sale = { req, resource, headers };
  const allowed = allowedMethods(resource);
  if (!allowed.includes(req.method)) return protocol.methodNotAllowed(sale, allowed); // the body is never read
  await protocol.assertSells?.(sale);
  if (resource.scheme === "upto" && !protocol.metered)
    throw new ConflictError(`Paid resource ${resource.id} is usage-priced (upto): it is sold over x402 only (/x402/r/${resource.id}).`, {
      reason: "scheme_not_supported",
    });

  if (!presented) return protocol.refuse(sale, credential?.ok === false ? credential.refusal : protocol.unpaid(sale));
  // The same payment sent again (a lost answer): the answer it got, never a second charge or forward.
  if (earlier?.captured) {
    const again = await answerAgain(sale, earlier.paymentIntentId);
    if (again) return again; // null: nobody made its answer (its maker died): made below from the payment again
  }
  if (resource.scheme === "upto" && protocol.metered)
    return protocol.metered(sale, presented.value, { credentialHash: presented.hash, paidBefore: earlier !== null });
  const payment = await protocol.verify(sale, presented.value, earlier !== null);
  if (!payment.ok) return protocol.refuse(sale, payment.refusal);

  const forwarded = resource.url !== null;
  const body = forwarded && req.method !== "GET" ? await readBodyText(req, env.BODY_LIMIT_BYTES) : undefined;

  // The sale's row goes in with the settlement, leased to this request: a retry meanwhile waits for its answer. The
  // receipt is signed there too when the payment is captured in it (test mode, MPP): it commits with the sale.
  let lease: { paymentIntentId: string; token: string; at: number } | null = null;
  let signed: SignedReceipt | null = null;
  const record = async (tx: Db, paymentIntentId: string, read?: SaleReads) => {
    signed = await signReceiptInSale(tx, paymentIntentId, read);
    const token = await leaseAnswerInSale(tx, { paymentIntentId, paidResourceId: resource.id, credentialHash: presented.hash });
    lease = { paymentIntentId, token, at: Date.now() };
  };
  let settled;
  try {
    settled = await protocol.settle(sale, payment.value, record);
  } catch (err) {
    await giveBack(lease); // a live payment still settling: its retry makes the answer
    return protocol.refuse(sale, protocol.settleFailed(sale, payment.value, err)); // rolled back: nothing charged
  }
  if (!settled.ok) {
    await giveBack(lease);
    return protocol.refuse(sale, settled.refusal);
  }

  // Committed: the payment is in the ledger. Now the paid content, made once.
  const paid = settled.value;
  // Signed in the sale only when this request captured that very payment (a replayed settlement has its own).
  const inSale = signed as SignedReceipt | null;
  const receipt = await protocol.receipt(sale, payment.value, paid, !paid.replayed && inSale ? inSale : null);
  const key = { paymentIntentId: paid.paymentIntentId, paidResourceId: resource.id, credentialHash: presented.hash };
  // The lease taken with the settlement: renewed when the settlement took long (a live payment waited on the chain
  // past half of it), or another.
  const held = lease as { token: string; at: number } | null;
  const fresh = held !== null && Date.now() - held.at < ANSWER_LEASE_MS() / 2;
  let token = held && (fresh || (await renewAnswerLease(getDb(), paid.paymentIntentId, held.token))) ? held.token : null;
  for (let attempt = 0; attempt < 3; attempt++) {
    token ??= await leaseAnswer(getDb(), key);
    if (token) return makeAnswer(protocol.name, sale, paid, { token, receipt, body });
    const again = await answerAgain(sale, paid.paymentIntentId);
    if (again) return again;
  }
  throw new AnswerPendingError(paid.paymentIntentId);
}

/**
 * The credential and its hash, from the request alone (HEAD never pays). One that cannot even be read (e.g. JSON nested
 * too deep to fingerprint: 400) still costs the client IP's token, which the door's first statement would have taken.
 */
async function readCredential<C, P, R>(protocol: SaleProtocol<C, P, R>, req: Request, headers: Headers) {
  try {
    const credential = req.method === "HEAD" ? null : protocol.parse(req);
    const presented = credential?.ok
      ? { value: credential.value, hash: createHash("sha256").update(protocol.fingerprint(credential.value)).digest("hex") }
      : null;
    return { credential, presented };
  } catch (err) {
    await limitByClientIp(req, headers);
    throw err;
  }
}

/** A lease taken with the settlement given back unused (the payment failed or is still settling on chain). */
async function giveBack(lease: { paymentIntentId: string; token: string } | null): Promise<void> {
  if (lease) await releaseAnswerLease(getDb(), lease.paymentIntentId, lease.token).catch(() => undefined);
}

/**
 * The paid answer, by the lease's holder: the resource's content or the merchant's forwarded answer, kept for a
 * replay (the body only when the resource is replayable). A forward that fails is refunded and its 502 kept; one
 * paid on chain cannot be refunded: the lease is given back so that the same payment forwards again.
 */
async function makeAnswer(
  protocol: string,
  { req, resource, headers }: Sale,
  settled: Settled,
  made: { token: string; receipt: Record<string, string>; body: string | undefined },
): Promise<Response> {
  const { paymentIntentId } = settled;
  const keep = (answer: PaidAnswer) => keepWithRetries(paymentIntentId, made.token, answer, resource.replayable);
  let answer: PaidAnswer;
  if (resource.url === null) {
    const body = Buffer.from(JSON.stringify(resource.content ?? null));
    answer = { kind: "content", status: 200, contentType: "application/json", headers: made.receipt, body };
    // The resource's own content is kept while the response goes out, not before it: a replay meanwhile waits on the
    // lease this request holds, and one after a crash makes the same content again (nothing is forwarded twice).
    void keep(answer);
    return answerWith(headers, answer, paymentIntentId);
  } else {
    const forward = await forwardPaidRequest(req, resource, { paymentIntentId, payer: settled.payer, body: made.body }).catch(
      (err: unknown) => {
        void releaseAnswerLease(getDb(), paymentIntentId, made.token).catch(() => undefined);
        throw err;
      },
    );
    if (!forward.ok) {
      const failure = `${forward.failure}${forward.status ? ` ${forward.status}` : ""}`;
      if (settled.onChain) {
        await releaseAnswerLease(getDb(), paymentIntentId, made.token);
        throw failedForwardOnChain(resource, settled, settled.onChain.transaction, failure);
      }
      const error = await refundFailedForward(protocol, resource, settled, failure);
      // Refunded: that 502 is the answer for good. Not refunded (the rail down too): the same payment forwards again.
      if (error.details.refundId) await keep({ kind: "error", message: error.message, details: error.details });
      else await releaseAnswerLease(getDb(), paymentIntentId, made.token);
      throw error;
    }
    answer = { kind: "content", status: forward.status, contentType: forward.contentType, headers: made.receipt, body: forward.body };
  }
  await keep(answer);
  return answerWith(headers, answer, paymentIntentId);
}

/**
 * The answer given to a payment, again: the kept answer (waiting while another request makes it), or null when
 * nobody is making it (the caller makes it). 503 answer_pending when it takes longer than a lease.
 */
export async function answerAgain({ headers }: Sale, paymentIntentId: string): Promise<Response | null> {
  const deadline = Date.now() + ANSWER_LEASE_MS();
  for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
    const kept = await readAnswer(getDb(), paymentIntentId);
    if (kept.answer) return answerWith(headers, kept.answer, paymentIntentId);
    if (!kept.leased) return null;
    if (Date.now() > deadline) throw new AnswerPendingError(paymentIntentId);
    await sleep(pause); // a content answer takes milliseconds, a forward up to its time-out
  }
}

/** The answer kept, retried over a brief database error: a replay would otherwise wait out the lease and forward again. */
export async function keepWithRetries(paymentIntentId: string, token: string, answer: PaidAnswer, keepBody: boolean): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await keepAnswer(getDb(), paymentIntentId, token, answer, keepBody);
    } catch (err) {
      if (attempt === 3) {
        console.error(
          `[paid] keeping the answer to ${paymentIntentId} failed (a replay makes it again):`,
          err instanceof Error ? err.message : err,
        );
        return;
      }
      await sleep(100 * attempt);
    }
  }
}

/** A kept answer as the response: the content with its receipt, the failed forward's error, or 409 replay_not_stored. */
export function answerWith(headers: Headers, answer: PaidAnswer, paymentIntentId: string): Response {
  if (answer.kind === "error") {
    const error = new UpstreamError(answer.message);
    Object.assign(error.details, answer.details);
    throw error;
  }
  if (answer.kind === "not_stored")
    throw new ConflictError(
      `The payment ${paymentIntentId} was answered already, and this resource does not keep its answers (replayable: false); it is never charged twice.`,
      { reason: "replay_not_stored", paymentIntentId },
    );
  for (const [name, value] of Object.entries(answer.headers)) headers.set(name, value);
  headers.set("Cache-Control", paidContentCacheControl(headers.get("Cache-Control"), answer.body));
  return paidContentResponse(headers, answer);
}

/**
 * Paid content is the payer's alone: no shared cache may keep it (MPP's headers said so, x402's answer said nothing).
 * A small one, often a few bytes, goes out uncompressed (lib/http/small-answer.ts). The protocol's directives stay.
 */
function paidContentCacheControl(current: string | null, body: Uint8Array | null): string {
  const directives = new Set((current ?? "").split(",").map((d) => d.trim()));
  directives.delete("");
  directives.add("no-store");
  if (isSmallAnswer(body)) directives.add("no-transform");
  return [...directives].join(", ");
}

/** A forward that failed after the chain moved the money: the capture stands; the same payment sent again forwards again. */
function failedForwardOnChain(resource: PaidResource, settled: Settled, transaction: string, failure: string): UpstreamError {
  const error = new UpstreamError(
    `The merchant's server for paid resource ${resource.id} failed (${failure}). The payment ${settled.paymentIntentId} was settled on chain (${transaction}) and cannot be refunded by this service: send the same payment again to retry the request, or ask the merchant for a refund from its wallet.`,
  );
  Object.assign(error.details, { reason: "forward_failed", paymentIntentId: settled.paymentIntentId, transaction });
  return error;
}

/** The payment of a forward that failed, refunded; the 502 `forward_failed` to throw (refundId null when the refund failed too). */
async function refundFailedForward(protocol: string, resource: PaidResource, settled: Settled, failure: string): Promise<UpstreamError> {
  const scope = { merchantId: resource.merchantId, livemode: resource.livemode };
  const { paymentIntentId } = settled;
  const label = protocol === "mpp" ? "MPP" : protocol;
  const failed = `The merchant's server for paid resource ${resource.id} failed (${failure})`;
  let error: UpstreamError;
  let refundId: string | null = null;
  try {
    const refund = await transaction((tx) =>
      createRefund(tx, scope, { paymentIntentId, reason: `${label} paid resource: the merchant's server failed (${failure})` }),
    );
    refundId = refund.id;
    error = new UpstreamError(`${failed}; the payment ${paymentIntentId} was refunded (${refund.id}).`);
  } catch (err) {
    // The refund itself failed (e.g. the rail is down): say so; the merchant sees the captured payment and can refund it.
    console.error(`[${protocol}] refunding ${paymentIntentId} after a failed forward failed:`, err instanceof Error ? err.message : err);
    error = new UpstreamError(`${failed}, and refunding the payment ${paymentIntentId} failed too; the merchant can refund it.`);
  }
  Object.assign(error.details, { reason: "forward_failed", paymentIntentId, refundId });
  return error;
}
