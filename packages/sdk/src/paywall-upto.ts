// x402 `upto` in paywallHttp() (docs/sdk.md "Usage-priced x402 (upto)"): the payer authorizes the maximum, the
// handler runs, and what it used is settled. The order differs from a fixed price's because the price is known
// only after the handler answered:
//   1. the payment verified through the facilitator against the maximum (POST /x402/verify); nothing moved. A payment
//      the facilitator settled before (this very payload) is SPEC 3.3's already_redeemed: its call ran already;
//   2. the handler runs and reports its units in the `X-Usage-Units` response header (a whole number);
//   3. units x unitAmount settled (POST /x402/settle with that amount): the PaymentIntent of what was used, redeemed in
//      the consumed store; the answer carries PAYMENT-RESPONSE (with the settled `amount`) and the payment block.
// Nothing is settled when the handler throws or answers 5xx (its answer as it is; a throw is a 500), when its usage
// is missing or malformed (500 usage_not_reported) or above the maximum (500 usage_exceeds_maximum, never capped):
// its content is withheld then, and the authorization stays unspent. Zero units: the answer, a receipt of amount 0.
import { json, withPayment } from "./paywall-http-answers";
import type { ResolvedPaywall } from "./paywall-options";
import { alreadyRedeemed } from "./paywall-terms";
import type { X402Gate } from "./paywall-x402";

/** The response header in which a usage-priced handler reports the units its request used. */
export const USAGE_UNITS_HEADER = "X-Usage-Units";

type Handler = (req: Request) => Response | Promise<Response>;
/** The 402's PAYMENT-REQUIRED headers (paywall-http.ts), with `error` when a payment was refused. */
type Required = (error: string) => Promise<Record<string, string> | undefined>;

/** X-Usage-Units as a whole number of units, or null when absent or malformed. */
export function usageUnits(value: string | null): number | null {
  if (value === null || !/^\s*\d{1,15}\s*$/.test(value)) return null;
  return Number(value.trim());
}

function failed(status: number, code: string, message: string, details: Record<string, unknown> = {}): Response {
  return json(status, { error: { code, message, details } });
}

function refused(reason: string, message: string | undefined, headers: Record<string, string> | undefined): Response {
  return json(402, { x402Version: 2, error: reason, ...(message ? { message } : {}), accepts: [] }, headers);
}

export async function payWithUpto(x402: X402Gate, paywall: ResolvedPaywall, req: Request, handler: Handler, required: Required) {
  const terms = x402.upto!;
  let verified;
  try {
    verified = await x402.verifyUpto(req);
  } catch {
    return failed(502, "UPSTREAM_ERROR", "The x402 payment could not be checked; it was not used, retry.");
  }
  if (verified.kind === "refused") return refused(verified.reason, verified.message, await required(verified.reason));
  if (verified.kind === "replayed") {
    await paywall.consumed.consume(verified.paymentIntentId).catch(() => false); // its call ran: never twice
    return json(409, alreadyRedeemed(verified.paymentIntentId));
  }

  let response: Response;
  try {
    response = await handler(req);
  } catch (err) {
    console.error("paywallHttp: the handler threw; its x402 payment was not settled:", err);
    return failed(500, "INVARIANT_VIOLATION", "The request failed; nothing was charged (the payment was not settled).");
  }
  if (response.status >= 500) return response; // nothing settled: the authorization is not spent
  const units = usageUnits(response.headers.get(USAGE_UNITS_HEADER));
  if (units === null) {
    const message = `The handler did not report the units used (${USAGE_UNITS_HEADER}: a whole number); nothing was charged.`;
    return failed(500, "INVARIANT_VIOLATION", message, { reason: "usage_not_reported" });
  }
  const amount = units * terms.unitAmount;
  if (amount > terms.maxAmount) {
    const message = `The handler reported ${units} units (${amount}), above the authorized maximum ${terms.maxAmount}: nothing was charged.`;
    return failed(500, "INVARIANT_VIOLATION", message, { reason: "usage_exceeds_maximum", units, amount, maxAmount: terms.maxAmount });
  }

  let outcome;
  try {
    outcome = await x402.settleUpto(verified, amount);
  } catch {
    return failed(502, "UPSTREAM_ERROR", "The usage could not be settled; nothing was charged, send the same payment again.");
  }
  if (outcome.kind === "pending") {
    const message = `The x402 payment is being settled on chain (transaction ${outcome.transaction || "being sent"}); send the same payment again shortly.`;
    const details = { reason: "settlement_pending", transaction: outcome.transaction };
    return json(503, { error: { code: "CIRCUIT_OPEN", message, details } }, { "Retry-After": "2" });
  }
  if (outcome.kind !== "paid") {
    const reason = outcome.kind === "refused" ? outcome.reason : "Payment required";
    return refused(reason, outcome.kind === "refused" ? outcome.message : undefined, await required(reason));
  }
  const receipt = { "PAYMENT-RESPONSE": outcome.receipt, "X-PAYMENT-RESPONSE": outcome.receipt };
  if (outcome.paymentIntentId === "") return withHeaders(response, receipt); // zero units: nothing captured
  let first: boolean;
  try {
    first = await paywall.consumed.consume(outcome.paymentIntentId);
  } catch {
    const message = `The x402 payment was settled (${outcome.paymentIntentId}) but could not be redeemed; send the same payment again.`;
    return failed(502, "UPSTREAM_ERROR", message, { paymentIntentId: outcome.paymentIntentId });
  }
  if (!first) return json(409, alreadyRedeemed(outcome.paymentIntentId)); // a copy of this payment ran first
  return withHeaders(await withPayment(response, { status: "paid", paymentIntentId: outcome.paymentIntentId }), receipt);
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
}
