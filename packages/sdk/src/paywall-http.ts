// paywallHttp(options)(handler): the single-use paywall over plain HTTP, for any `(Request) => Response`
// handler (a Next.js route, a Fetch-API server). Same decisions as paywall() (see redeem.ts):
//   unpaid              -> 402, body = the gate (docs/sdk.md "Paywall (single-use), for MCP tools")
//   proof fails verify  -> 402, gate with reasonCode
//   proof reused        -> 409, body { kind: "already_redeemed", ... }
//   proof ok            -> the handler's response, plus header `x-service-payment-response` (JSON payment
//                          block) and, when the body is a JSON object, a `payment` field in it
//   verifier/store down -> 502 UPSTREAM_ERROR in the service's error shape; the proof is not consumed by a
//                          failed verify, so the caller may retry
//   handler answers 5xx -> that response, its payment refunded (paywall-refund.ts): the payment block (header and
//                          JSON field) is { status: "refunded", paymentIntentId, refundId } or "refund_failed"
//   handler throws      -> 500 INVARIANT_VIOLATION in the service's error shape, with that payment block
//                          (the redemption stays consumed either way: the same proof is then 409 already_redeemed)
//   x402 payment        -> settled through the facilitator (paywall-x402.ts), its PaymentIntent consumed in the
//                          store, then as above; the same payment again (the facilitator answers it as settled
//                          before) finds it consumed: 409 already_redeemed, the handler never runs twice
//   x402 upto payment    -> (x402.maxAmount, x402.unitAmount) verified, the handler run, its X-Usage-Units x
//                          unitAmount settled after it (paywall-upto.ts)
// Proof: `_servicePayment: { paymentIntentId }` in a JSON body, or an `x-service-payment` header holding
// that JSON or a bare paymentIntentId. A proof taken from the body is removed before the handler reads it.
import { ServiceError } from "./errors";
import { isJson, json, PAYMENT_RESPONSE_HEADER, withPayment } from "./paywall-http-answers";
import { PAYMENT_ARGUMENT } from "./paywall";
import { resolvePaywallOptions, type PaywallOptions, type ResolvedPaywall } from "./paywall-options";
import type { FailureRefunds } from "./paywall-refund";
import { alreadyRedeemed } from "./paywall-terms";
import { payWithUpto } from "./paywall-upto";
import { X402Gate } from "./paywall-x402";
import { decideRedemption } from "./redeem";
import { keyMode, linkedKeyMode } from "./service-link";

export const PAYMENT_HEADER = "x-service-payment";
export { PAYMENT_RESPONSE_HEADER };
/** x402 (options.x402): the 402's PaymentRequired, and the settlement receipt of a paid x402 retry. */
export const X402_PAYMENT_REQUIRED_HEADER = "PAYMENT-REQUIRED";
export const X402_PAYMENT_RESPONSE_HEADER = "PAYMENT-RESPONSE";

export type HttpHandler = (req: Request) => Response | Promise<Response>;

export function paywallHttp(options: PaywallOptions) {
  const resolved = resolvePaywallOptions("paywallHttp", options);
  const x402 = options.x402
    ? new X402Gate(options.x402, { price: resolved.terms.price, currency: resolved.terms.currency, sku: resolved.terms.sku })
    : null;
  // An x402 payment is redeemed in the store: a service store of the other mode would refuse every settled payment.
  const [storeMode, x402Mode] = [linkedKeyMode(resolved.consumed), options.x402 ? keyMode(options.x402.apiKey) : null];
  if (storeMode && x402Mode && storeMode !== x402Mode)
    throw new TypeError("paywallHttp: the x402 key and the consumed store's key must be of the same mode (both test or both live).");
  return function wrap(handler: HttpHandler) {
    if (typeof handler !== "function") throw new TypeError("paywallHttp(options)(handler): handler must be a function.");
    return async function paywalled(req: Request): Promise<Response> {
      if (x402 && X402Gate.carriesPayment(req) && !req.headers.has(PAYMENT_HEADER))
        return x402.upto
          ? payWithUpto(x402, resolved, req, handler, (error) => x402Required(x402, req, error))
          : payWithX402(x402, resolved, req, handler);
      const { proof, forward } = await readProof(req);
      let decision;
      try {
        decision = await decideRedemption(resolved, proof);
      } catch (err) {
        const message = ServiceError.is(err) ? err.message : "The payment could not be checked.";
        return json(502, { error: { code: "UPSTREAM_ERROR", message, details: {} } });
      }
      if (decision.kind === "gate") return json(402, decision.gate, x402 ? await x402Required(x402, req) : undefined);
      if (decision.kind === "already_redeemed") return json(409, decision.body);
      return runPaid(() => handler(forward), decision.paymentIntentId, resolved.refunds);
    };
  };
}

/** The x402 header of a 402, or none when the facilitator cannot be reached (the service gate still stands). */
async function x402Required(x402: X402Gate, req: Request, error?: string): Promise<Record<string, string> | undefined> {
  try {
    return {
      [X402_PAYMENT_REQUIRED_HEADER]: await x402.paymentRequired(req, error),
      "Access-Control-Expose-Headers": "PAYMENT-REQUIRED, PAYMENT-RESPONSE",
    };
  } catch {
    return undefined;
  }
}

/** A stock x402 client's retry: settled through the facilitator before the handler runs; a refusal is a 402 again. */
async function payWithX402(x402: X402Gate, paywall: ResolvedPaywall, req: Request, handler: HttpHandler): Promise<Response> {
  let outcome;
  try {
    outcome = await x402.settle(req);
  } catch {
    return json(502, {
      error: { code: "UPSTREAM_ERROR", message: "The x402 payment could not be checked; it was not used, retry.", details: {} },
    });
  }
  if (outcome.kind === "pending") {
    // Never a 402 for a payment already sent: the client would sign a second one. The same payment, sent again, gets its outcome.
    const message = `The x402 payment is being settled on chain (transaction ${outcome.transaction || "being sent"}); send the same payment again shortly.`;
    const details = { reason: "settlement_pending", transaction: outcome.transaction };
    return json(503, { error: { code: "CIRCUIT_OPEN", message, details } }, { "Retry-After": "2" });
  }
  if (outcome.kind !== "paid") {
    const reason = outcome.kind === "refused" ? outcome.reason : "Payment required";
    return json(
      402,
      {
        x402Version: 1,
        error: reason,
        ...(outcome.kind === "refused" && outcome.message ? { message: outcome.message } : {}),
        accepts: [],
      },
      await x402Required(x402, req, reason),
    );
  }
  // SPEC 3.3: one payment runs the handler once, however often it is sent (its answer lost, copies racing): the
  // settled PaymentIntent is redeemed like a service proof. The facilitator answers a replay as settled, so a
  // payment whose first request never reached the handler (pending on chain, cut off) still runs it, once.
  const { paymentIntentId } = outcome;
  let first: boolean;
  try {
    first = await paywall.consumed.consume(paymentIntentId);
  } catch {
    const message = `The x402 payment was settled (${paymentIntentId}) but could not be redeemed; send the same payment again.`;
    return json(502, { error: { code: "UPSTREAM_ERROR", message, details: { paymentIntentId } } });
  }
  if (!first) return json(409, alreadyRedeemed(paymentIntentId));
  const response = await runPaid(() => handler(req), paymentIntentId, x402.refunds);
  response.headers.set(X402_PAYMENT_RESPONSE_HEADER, outcome.receipt);
  response.headers.set("X-PAYMENT-RESPONSE", outcome.receipt);
  return response;
}

/**
 * Runs the handler of a consumed payment: its answer with the paid block; a 5xx answer (or a throw, then a 500)
 * with the payment refunded instead. The redemption is never undone.
 */
async function runPaid(run: () => Response | Promise<Response>, paymentIntentId: string, refunds: FailureRefunds): Promise<Response> {
  let response: Response;
  try {
    response = await run();
  } catch (err) {
    // As a framework would: the throw is logged, the caller gets a 500 without its details.
    console.error("paywallHttp: the handler threw; its payment is refunded:", err);
    const message = "The request failed after it was paid; see payment for the refund.";
    return withPayment(json(500, { error: { code: "INVARIANT_VIOLATION", message, details: {} } }), await refunds.refund(paymentIntentId));
  }
  if (response.status >= 500) return withPayment(response, await refunds.refund(paymentIntentId));
  return withPayment(response, { status: "paid", paymentIntentId });
}

/**
 * The proof (the header wins over the body) and the request to hand on: a JSON body that carried
 * `_servicePayment` is passed on without it, whichever proof was used.
 */
async function readProof(req: Request): Promise<{ proof: unknown; forward: Request }> {
  const header = req.headers.get(PAYMENT_HEADER);
  const headerProof = header !== null && header.trim() !== "" ? header : undefined;
  if (req.method === "GET" || req.method === "HEAD" || !isJson(req.headers.get("content-type")))
    return { proof: headerProof, forward: req };

  let body: unknown;
  try {
    body = JSON.parse(await req.clone().text());
  } catch {
    return { proof: headerProof, forward: req };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body) || !(PAYMENT_ARGUMENT in body))
    return { proof: headerProof, forward: req };
  const { [PAYMENT_ARGUMENT]: bodyProof, ...rest } = body as Record<string, unknown>;
  const headers = new Headers(req.headers);
  headers.delete("content-length");
  const forward = new Request(req.url, { method: req.method, headers, body: JSON.stringify(rest), signal: req.signal });
  return { proof: headerProof ?? bodyProof, forward };
}
