// A hosted paid resource over x402 (docs/x402.md, docs/x402.md): public at /x402/r/:id (the payment is
// the credential), limited per client IP. Unpaid: 402 with PAYMENT-REQUIRED (standard base64 of the v2
// PaymentRequired) and the v1 JSON body { x402Version: 1, error, accepts }. Paid: PAYMENT-SIGNATURE (v2) or
// X-PAYMENT (v1) is verified offline and settled into a captured PaymentIntent in ONE transaction; only after
// it committed is the content returned (or the request forwarded to the merchant's URL) with PAYMENT-RESPONSE
// and X-PAYMENT-RESPONSE. A forward that fails (5xx, network error, time-out) is refunded, and answered 502.
import { getDb, transaction } from "../db";
import { env } from "../env";
import { ConflictError, NotFoundError, UpstreamError } from "../errors";
import type { PaidResource } from "../generated/prisma/client";
import { byClientIp, pipeline, type Steps } from "../http/pipeline";
import { readBodyText } from "../http/read-body";
import { findPublicPaidResource } from "../paid-resources/get-paid-resource";
import { forwardPaidRequest } from "../paid-resources/forward-request";
import { createRefund } from "../refunds/create-refund";
import { checkPayment } from "./check-payment";
import { decodeHeader, encodeHeader, MAX_PAYMENT_HEADER_CHARS } from "./encoding";
import { centsToAtomic, MAX_TIMEOUT_SECONDS, networkFor, payToAddress, SCHEME } from "./networks";
import { settlePayment } from "./settle-payment";

export const PAYMENT_REQUIRED_HEADER = "PAYMENT-REQUIRED";
export const PAYMENT_RESPONSE_HEADERS = ["PAYMENT-RESPONSE", "X-PAYMENT-RESPONSE"] as const;
const EXPOSED = "PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-PAYMENT-RESPONSE";

/** The x402 requirements of a resource, v2 and v1 (v1 accepts never list a non-standard network). */
export function resourceRequirements(resource: PaidResource) {
  const network = networkFor(resource.livemode);
  const url = `${env.BASE_URL}/x402/r/${resource.id}`;
  const description = resource.description ?? resource.name;
  const mimeType = resource.url ? "" : "application/json";
  const payTo = payToAddress(resource.merchantId, resource.livemode);
  const amount = centsToAtomic(resource.amount).toString();
  const v2 = {
    scheme: SCHEME,
    network: network.caip2,
    amount,
    asset: network.asset,
    payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: { ...network.extra },
  };
  const v1 = {
    scheme: SCHEME,
    network: network.v1Name,
    maxAmountRequired: amount,
    resource: url,
    description,
    mimeType,
    payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    asset: network.asset,
    extra: { ...network.extra },
  };
  return { resource: { url, description, mimeType }, v2, v1 };
}

function paymentRequired(resource: PaidResource, error: string, headers: Headers, message?: string): Response {
  const terms = resourceRequirements(resource);
  headers.set(PAYMENT_REQUIRED_HEADER, encodeHeader({ x402Version: 2, error, resource: terms.resource, accepts: [terms.v2] }));
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify({ x402Version: 1, error, ...(message ? { message } : {}), accepts: [terms.v1] }), {
    status: 402,
    headers,
  });
}

/** The public pipeline (per-IP limit, errors in the error contract); the resource's id is checked by its lookup. */
const PAID_RESOURCE: Steps<undefined> = { authenticate: byClientIp, claims: false, headers: { "Access-Control-Expose-Headers": EXPOSED } };

export const serveX402Resource = pipeline(PAID_RESOURCE, { rawInput: true, transaction: false }, ({ req, params, headers }) =>
  sellResource(req, params.id, headers),
);

async function sellResource(req: Request, id: string, headers: Headers): Promise<Response> {
  const resource = await findPublicPaidResource(getDb(), id);
  if (!resource) throw new NotFoundError("paid_resource", id);
  if (resource.currency !== "USD") {
    throw new ConflictError(
      `Paid resource ${id} is priced in ${resource.currency}; x402 pays in USDC, so only USD-priced resources are sold here (MPP: /mpp/r/${id}).`,
      { reason: "currency_not_supported" },
    );
  }
  const header = req.headers.get("payment-signature") ?? req.headers.get("x-payment");
  if (header === null)
    return paymentRequired(resource, "Payment required", headers, "Pay with PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT (v1).");
  if (header.length > MAX_PAYMENT_HEADER_CHARS)
    return paymentRequired(resource, "invalid_payload", headers, "The payment header is too large.");
  const decoded = decodeHeader(header) as { x402Version?: unknown } | null;
  if (!decoded || typeof decoded !== "object")
    return paymentRequired(resource, "invalid_payload", headers, "The payment header is not standard base64 of a JSON PaymentPayload.");
  const version = decoded.x402Version;
  if (version !== 1 && version !== 2)
    return paymentRequired(resource, "invalid_x402_version", headers, `x402Version ${String(version)} is not supported (1 or 2).`);

  // A body to forward is read (and size-checked) before anything is charged.
  const hasBody = resource.url !== null && req.method !== "GET" && req.method !== "HEAD";
  const body = hasBody ? await readBodyText(req, env.BODY_LIMIT_BYTES) : undefined;

  const terms = resourceRequirements(resource);
  const payment = await checkPayment({
    merchantId: resource.merchantId,
    livemode: resource.livemode,
    version,
    paymentPayload: decoded,
    paymentRequirements: version === 2 ? terms.v2 : terms.v1,
  });
  if (!payment.ok) return paymentRequired(resource, payment.reason, headers, payment.message);
  const scope = { merchantId: resource.merchantId, livemode: resource.livemode };
  const settled = await transaction((tx) => settlePayment(tx, scope, payment, { paidResourceId: resource.id, name: resource.name }));
  if (!settled.ok) return paymentRequired(resource, settled.reason, headers, settled.message);

  // Committed: the payment is in the ledger. Now the paid content.
  const receipt = encodeHeader({
    success: true,
    transaction: settled.paymentIntentId,
    network: payment.networkName,
    payer: payment.payer,
  });
  if (resource.url === null) {
    for (const name of PAYMENT_RESPONSE_HEADERS) headers.set(name, receipt);
    headers.set("Content-Type", "application/json");
    return new Response(JSON.stringify(resource.content), { status: 200, headers });
  }
  const forwarded = await forwardPaidRequest(req, {
    resourceId: resource.id,
    url: resource.url,
    paymentIntentId: settled.paymentIntentId,
    payer: payment.payer,
    body,
  });
  if (!forwarded.ok) {
    const refund = await transaction((tx) =>
      createRefund(tx, scope, {
        paymentIntentId: settled.paymentIntentId,
        reason: `x402 paid resource: the merchant's server failed (${forwarded.failure}${forwarded.status ? ` ${forwarded.status}` : ""})`,
      }),
    );
    const failed = new UpstreamError(
      `The merchant's server for paid resource ${resource.id} failed (${forwarded.failure}); the payment ${settled.paymentIntentId} was refunded (${refund.id}).`,
    );
    Object.assign(failed.details, { reason: "forward_failed", paymentIntentId: settled.paymentIntentId, refundId: refund.id });
    throw failed;
  }
  for (const name of PAYMENT_RESPONSE_HEADERS) headers.set(name, receipt);
  if (forwarded.contentType) headers.set("Content-Type", forwarded.contentType);
  return new Response(new Uint8Array(forwarded.body), { status: forwarded.status, headers });
}
