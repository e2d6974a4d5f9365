// The one door of a hosted paid resource (/x402/r/:id, /mpp/r/:id; docs/x402.md, docs/mpp.md): a composition of the
// request pipeline (the per-IP limit, the protocol's error shape) whose handler runs a sale's steps once for every
// protocol, in order:
//   1. the resource (active, by id alone: its row says whose and which mode; else 404), its method (else 405,
//      before anything is read), whether the protocol sells it;
//   2. the credential parsed (HEAD never pays: it gets the terms) and verified, nothing written;
//   3. a body to forward read and size-checked, before anything is charged;
//   4. the credential spent once and the captured PaymentIntent (the protocol's `settle`, in its transactions);
//   5. only after it committed, the paid content (the resource's `content`, or the request forwarded to the
//      merchant's `url`) with the protocol's receipt. A forward that fails (5xx, network error, time-out, too
//      large) is refunded and answered 502 `forward_failed`: the payer keeps nothing it did not get. Money paid
//      on chain to the merchant's own wallet cannot be refunded here: 502 `forward_failed` with the transaction,
//      and the same payment sent again is forwarded again.
// The protocol (sale-protocol.ts) says how its credential reads, verifies, settles, what the receipt and the
// refusals are; it never moves money itself.
import { getDb, transaction } from "../db";
import { env } from "../env";
import { NotFoundError, UpstreamError } from "../errors";
import type { PaidResource } from "../generated/prisma/client";
import { byClientIp, pipeline } from "../http/pipeline";
import { readBodyText } from "../http/read-body";
import { forwardPaidRequest } from "../paid-resources/forward-request";
import { findPublicPaidResource } from "../paid-resources/get-paid-resource";
import { allowedMethods, paidContentResponse, redirectToContentOrigin } from "../paid-resources/paid-content";
import { createRefund } from "../refunds/create-refund";
import type { SaleProtocol, Settled } from "./sale-protocol";

/** The route handler of a protocol's /<protocol>/r/:id (every method: the resource answers its own). */
export function paidResourceRoute<C, P, R>(protocol: SaleProtocol<C, P, R>) {
  const steps = { authenticate: byClientIp, claims: false, headers: protocol.headers, errorResult: protocol.errorResult };
  return pipeline(
    steps,
    { rawInput: true, transaction: false },
    ({ req, params, headers }) => redirectToContentOrigin(req) ?? sellPaidResource(protocol, req, params.id ?? "", headers),
  );
}

export async function sellPaidResource<C, P, R>(protocol: SaleProtocol<C, P, R>, req: Request, id: string, headers: Headers) {
  const resource = await findPublicPaidResource(getDb(), id);
  if (!resource) throw new NotFoundError("paid_resource", id);
  const sale = { req, resource, headers };
  const allowed = allowedMethods(resource);
  if (!allowed.includes(req.method)) return protocol.methodNotAllowed(sale, allowed); // the body is never read
  await protocol.assertSells?.(sale);

  // HEAD never pays (its answer has no body to deliver): it gets the terms, whatever it carries.
  if (req.method === "HEAD") return protocol.refuse(sale, protocol.unpaid(sale));
  const credential = protocol.parse(sale);
  if (!credential.ok) return protocol.refuse(sale, credential.refusal);
  const payment = await protocol.verify(sale, credential.value);
  if (!payment.ok) return protocol.refuse(sale, payment.refusal);

  const forwarded = resource.url !== null;
  const body = forwarded && req.method !== "GET" ? await readBodyText(req, env.BODY_LIMIT_BYTES) : undefined;

  let settled;
  try {
    settled = await protocol.settle(sale, payment.value);
  } catch (err) {
    return protocol.refuse(sale, protocol.settleFailed(sale, payment.value, err)); // rolled back: nothing charged
  }
  if (!settled.ok) return protocol.refuse(sale, settled.refusal);

  // Committed: the payment is in the ledger. Now the paid content.
  const receipt = protocol.receipt(sale, payment.value, settled.value);
  if (!forwarded) {
    for (const [name, value] of Object.entries(receipt)) headers.set(name, value);
    const content = new TextEncoder().encode(JSON.stringify(resource.content ?? null));
    return paidContentResponse(headers, { status: 200, contentType: "application/json", body: content });
  }
  const answer = await forwardPaidRequest(req, resource, {
    paymentIntentId: settled.value.paymentIntentId,
    payer: settled.value.payer,
    body,
  });
  if (!answer.ok) {
    const failure = `${answer.failure}${answer.status ? ` ${answer.status}` : ""}`;
    if (settled.value.onChain) throw failedForwardOnChain(resource, settled.value, settled.value.onChain.transaction, failure);
    throw await refundFailedForward(protocol.name, resource, settled.value, failure);
  }
  for (const [name, value] of Object.entries(receipt)) headers.set(name, value);
  return paidContentResponse(headers, answer);
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
