// Paid requests the service forwards to a merchant's own server (a hosted paid resource with a `url`; docs/x402.md,
// "Forwarded requests"). Each carries `x-payment-intent: pi_...` and `x-service-signature: t=<unix>,v1=<hex>`,
// signed like a webhook (webhooks.ts: Stripe's scheme, so Stripe's verifyHeader accepts it too) over
//   `${METHOD} ${path?query}\n${x-payment-intent}\n${raw body}`
// with the resource's forwarding secret (`whsec_...`). During a rotation two v1 entries appear (new and previous).
import {
  SIGNATURE_HEADER,
  signWebhookPayload,
  verificationFailure,
  verifySignedPayload,
  type RawBody,
  type VerifyWebhookOptions,
} from "./webhooks";

export const PAYMENT_INTENT_HEADER = "x-payment-intent";

export interface ForwardedRequestParts {
  method: string;
  /** The path and query string the merchant's server receives (`/api/jobs?q=1`). */
  pathAndQuery: string;
  paymentIntentId: string;
  body: RawBody;
}

export interface VerifiedForwardedRequest {
  /** The captured PaymentIntent that paid for this request. */
  paymentIntentId: string;
  /** The signature's timestamp (unix seconds). */
  timestamp: number;
  /** The raw body as text (the request itself is left unread). */
  body: string;
}

/** The string a forwarded request's signature covers (after `${t}.`). */
export function forwardedRequestPayload(parts: ForwardedRequestParts): Buffer {
  const head = Buffer.from(`${parts.method.toUpperCase()} ${parts.pathAndQuery}\n${parts.paymentIntentId}\n`, "utf8");
  return Buffer.concat([head, typeof parts.body === "string" ? Buffer.from(parts.body, "utf8") : parts.body]);
}

/** The `x-service-signature` value of a forwarded request: one v1 per secret (the service's side, and tests'). */
export function signForwardedRequest(secrets: string | readonly string[], parts: ForwardedRequestParts, timestamp: number): string {
  return signWebhookPayload(secrets, forwardedRequestPayload(parts), timestamp);
}

/**
 * Verifies that a request reaching the merchant's server was forwarded by the service for a paid request: its
 * method, path, query, `x-payment-intent` and body are what the service signed, within the tolerance (default
 * 300 s). Reads a clone of `req`, so the handler can still read the body. Throws ServiceError
 * `signature_verification_failed` (status 400) otherwise; answer it with 401.
 */
export async function verifyForwardedRequest(
  req: Request,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<VerifiedForwardedRequest> {
  const paymentIntentId = req.headers.get(PAYMENT_INTENT_HEADER);
  if (!paymentIntentId) throw verificationFailure(`Missing ${PAYMENT_INTENT_HEADER} header.`);
  const url = new URL(req.url);
  const body = new Uint8Array(await req.clone().arrayBuffer());
  const payload = forwardedRequestPayload({ method: req.method, pathAndQuery: `${url.pathname}${url.search}`, paymentIntentId, body });
  const timestamp = verifySignedPayload(payload, req.headers.get(SIGNATURE_HEADER), secrets, options, "verifyForwardedRequest");
  return { paymentIntentId, timestamp, body: Buffer.from(body).toString("utf8") };
}
