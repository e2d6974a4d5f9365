// A hosted paid resource over x402 (docs/x402.md): public at /x402/r/:id (the payment is the credential), sold by
// the one door of paid resources (lib/paid-sale/sell-paid-resource.ts) with x402's part: unpaid, 402 with
// PAYMENT-REQUIRED (standard base64 of the v2 PaymentRequired) and the v1 JSON body { x402Version: 1, error,
// accepts }; paid, PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1) verified offline (checkPayment) and settled into a
// captured PaymentIntent (settlePayment; a settlement that fails on our side: 402 with the reason and a failed
// PAYMENT-RESPONSE, settle-failure.ts); the receipt in PAYMENT-RESPONSE and X-PAYMENT-RESPONSE. What the door
// throws (404, 409 currency, 429, 502 forward_failed, 503) is in the service's error contract.
import { ConflictError } from "../errors";
import type { PaidResource } from "../generated/prisma/client";
import { paidResourceRoute } from "../paid-sale/sell-paid-resource";
import type { Sale, SaleProtocol } from "../paid-sale/sale-protocol";
import { paidResourceUrl } from "../paid-resources/paid-content";
import { checkPayment, type VerifiedPayment } from "./check-payment";
import { decodeHeader, encodeHeader, MAX_PAYMENT_HEADER_CHARS } from "./encoding";
import { centsToAtomic, MAX_TIMEOUT_SECONDS, networkFor, payToAddress, SCHEME } from "./networks";
import { failedSettleResponse, settleFailureOf, UNEXPECTED_SETTLE_ERROR } from "./settle-failure";
import { settlePayment, settleResponse } from "./settle-payment";

export const PAYMENT_REQUIRED_HEADER = "PAYMENT-REQUIRED";
export const PAYMENT_RESPONSE_HEADERS = ["PAYMENT-RESPONSE", "X-PAYMENT-RESPONSE"] as const;
const EXPOSED = "PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-PAYMENT-RESPONSE";

/** The x402 requirements of a resource, v2 and v1 (v1 accepts never list a non-standard network). */
export function resourceRequirements(resource: PaidResource) {
  const network = networkFor(resource.livemode);
  const url = paidResourceUrl("x402", resource.id);
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

/** A 402's reason (x402's `error`), its message, and the failed settle response of a payment that was tried. */
interface Refusal {
  error: string;
  message: string;
  settlement?: object;
}

/** The payment header, decoded to its envelope (its version checked; the rest is checkPayment's). */
interface Envelope {
  version: 1 | 2;
  payload: object;
}

const x402Sale: SaleProtocol<Envelope, VerifiedPayment, Refusal> = {
  name: "x402",
  headers: { "Access-Control-Expose-Headers": EXPOSED },
  assertSells(resource) {
    if (resource.currency === "USD") return;
    throw new ConflictError(
      `Paid resource ${resource.id} is priced in ${resource.currency}; x402 pays in USDC, so only USD-priced resources are sold here (MPP: /mpp/r/${resource.id}).`,
      { reason: "currency_not_supported" },
    );
  },
  unpaid: () => ({ error: "Payment required", message: "Pay with PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT (v1)." }),
  parse(sale) {
    const header = sale.req.headers.get("payment-signature") ?? sale.req.headers.get("x-payment");
    if (header === null) return { ok: false, refusal: x402Sale.unpaid(sale) };
    if (header.length > MAX_PAYMENT_HEADER_CHARS) return refused("invalid_payload", "The payment header is too large.");
    const decoded = decodeHeader(header) as { x402Version?: unknown } | null;
    if (!decoded || typeof decoded !== "object")
      return refused("invalid_payload", "The payment header is not standard base64 of a JSON PaymentPayload.");
    const version = decoded.x402Version;
    if (version !== 1 && version !== 2) return refused("invalid_x402_version", `x402Version ${String(version)} is not supported (1 or 2).`);
    return { ok: true, value: { version, payload: decoded } };
  },
  async verify({ resource }, { version, payload }) {
    const terms = resourceRequirements(resource);
    const payment = await checkPayment({
      merchantId: resource.merchantId,
      livemode: resource.livemode,
      version,
      paymentPayload: payload,
      paymentRequirements: version === 2 ? terms.v2 : terms.v1,
    });
    return payment.ok ? { ok: true, value: payment } : refused(payment.reason, payment.message);
  },
  async settle(tx, { resource }, payment) {
    const scope = { merchantId: resource.merchantId, livemode: resource.livemode };
    const settled = await settlePayment(tx, scope, payment, { paidResourceId: resource.id, name: resource.name });
    if (!settled.ok) return refused(settled.reason, settled.message); // the payment refused (nonce used)
    return { ok: true, value: { paymentIntentId: settled.paymentIntentId, payer: payment.payer } };
  },
  settleFailed({ headers }, payment, err) {
    // x402's answer to a failed settlement, never the /v1 error contract.
    const failure = settleFailureOf(err, headers.get("Request-Id") ?? "");
    if (failure.retryAfterSeconds !== null) headers.set("Retry-After", String(failure.retryAfterSeconds));
    const settlement = failedSettleResponse(UNEXPECTED_SETTLE_ERROR, failure.message, payment.networkName, payment.payer);
    return { error: UNEXPECTED_SETTLE_ERROR, message: failure.message, settlement };
  },
  receipt(_sale, payment, settled) {
    const receipt = encodeHeader(settleResponse(payment, settled.paymentIntentId));
    return Object.fromEntries(PAYMENT_RESPONSE_HEADERS.map((name) => [name, receipt]));
  },
  refuse: paymentRequired,
  methodNotAllowed({ resource, req, headers }, allowed) {
    headers.set("Allow", allowed.join(", "));
    headers.set("Content-Type", "application/json");
    const message = `Paid resource ${resource.id} takes ${allowed.join(" and ")}, not ${req.method}.`;
    return new Response(JSON.stringify({ error: { code: "METHOD_NOT_ALLOWED", message, details: { allowed } } }), { status: 405, headers });
  },
};

function refused(error: string, message: string): { ok: false; refusal: Refusal } {
  return { ok: false, refusal: { error, message } };
}

/** 402 with the terms; `settlement`: the failed settle response of a payment that was tried (PAYMENT-RESPONSE, x402 v2). */
function paymentRequired({ resource, headers }: Sale, { error, message, settlement }: Refusal): Response {
  const terms = resourceRequirements(resource);
  headers.set(PAYMENT_REQUIRED_HEADER, encodeHeader({ x402Version: 2, error, resource: terms.resource, accepts: [terms.v2] }));
  if (settlement) for (const name of PAYMENT_RESPONSE_HEADERS) headers.set(name, encodeHeader(settlement));
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify({ x402Version: 1, error, ...(message ? { message } : {}), accepts: [terms.v1] }), {
    status: 402,
    headers,
  });
}

export const serveX402Resource = paidResourceRoute(x402Sale);
