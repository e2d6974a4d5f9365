// /mpp/r/:id: a hosted paid resource (xr_, lib/paid-resources) sold over the Payment HTTP authentication
// scheme with the service method (docs/mpp.md). Public: the payment is the credential, and requests are
// limited per client IP. Without a credential: 402 + WWW-Authenticate: Payment (a fresh, single-use challenge
// bound to this resource and its price). With one: the challenge is checked (issued here, this resource, this
// price, not expired), then the token is redeemed once into a captured PaymentIntent (source "mpp", the
// resource's sale) in one transaction, and only after that commits is the content returned (a `content`
// resource, GET) or the request forwarded to the merchant's `url` (any method; the body is read before anything
// is charged), with Payment-Receipt. A forward that fails (5xx, network error, time-out) is refunded and
// answered 502, as on x402. Every refusal is an RFC 9457 problem body with a fresh challenge; nothing here is a
// 500 unless something unexpected failed (and then nothing was charged: the transaction rolled back).
import { Receipt } from "mppx";
import { getDb, transaction } from "../db";
import { env } from "../env";
import { DomainError, keepCommittedState, RateLimitedError } from "../errors";
import type { PaidResource } from "../generated/prisma/client";
import { limitByClientIp } from "../http/rate-limit-step";
import { readBodyText } from "../http/read-body";
import { forwardPaidRequest } from "../paid-resources/forward-request";
import { findPublicPaidResource } from "../paid-resources/get-paid-resource";
import { createRefund } from "../refunds/create-refund";
import { MPP_METHOD_NAME } from "agent-payments-sdk/mpp";
import { checkChallenge, issueChallenge } from "./challenge";
import { parseServiceCredential } from "./parse-credential";
import { EXPOSED_HEADERS, methodNotAllowed, problemResponse, type ProblemKind } from "./problem";
import { settleCredential } from "./settle-credential";

export async function serveMppResource(req: Request, id: string): Promise<Response> {
  const headers = new Headers();
  try {
    await limitByClientIp(req, headers);
  } catch (err) {
    if (err instanceof RateLimitedError) return problemResponse("rate_limited", { detail: err.message, headers });
    throw err;
  }
  const resource = await findPublicPaidResource(getDb(), id);
  if (!resource) return problemResponse("not_found", { detail: `No such paid resource: '${id.slice(0, 80)}'`, headers });
  const forwarded = resource.url !== null;
  if (!forwarded && req.method !== "GET" && req.method !== "HEAD") return methodNotAllowed(["GET", "HEAD"]); // the body is never read

  const refuse = (kind: ProblemKind, detail: string, extra?: Record<string, unknown>) =>
    problemResponse(kind, { detail, extra, headers, challenge: issueChallenge(priced(resource)) });

  const authorization = req.headers.get("authorization");
  // HEAD never pays (its answer has no body to deliver): it always gets the challenge, whatever it carries.
  if (req.method === "HEAD" || !authorization || !/^payment(\s|$)/i.test(authorization.trim())) {
    return refuse("payment_required", `Payment is required (${resource.name}).`);
  }
  const parsed = parseServiceCredential(authorization);
  if (!parsed.ok) return refuse(parsed.problem, parsed.message);
  const check = checkChallenge(parsed.credential, priced(resource));
  if (!check.ok) return refuse(check.problem, check.message);

  // A body to forward is read (and size-checked) before anything is charged.
  let body: string | undefined;
  if (forwarded && req.method !== "GET" && req.method !== "HEAD") {
    try {
      body = await readBodyText(req, env.BODY_LIMIT_BYTES);
    } catch (err) {
      if (err instanceof DomainError) return problemResponse("bad_request", { detail: err.message, headers });
      throw err;
    }
  }

  const { challenge, spt } = parsed.credential;
  let settled;
  try {
    // A decline commits (its PaymentIntent failed) and is answered as a refusal.
    settled = await transaction((tx) =>
      keepCommittedState(() =>
        settleCredential(
          tx,
          { merchantId: resource.merchantId, livemode: resource.livemode },
          {
            challengeId: challenge.id,
            resourceId: resource.id,
            expiresAt: check.expiresAt,
            amount: resource.amount,
            currency: resource.currency,
            description: resource.name,
            spt,
            sale: { paidResourceId: resource.id, payer: parsed.credential.raw.source ?? null },
          },
        ),
      ),
    );
  } catch (err) {
    if (err instanceof DomainError) return refusalOf(err, refuse);
    console.error("[mpp] settling a credential failed:", err instanceof Error ? (err.stack ?? err.message) : err);
    return problemResponse("internal", { detail: "An internal error occurred; nothing was charged.", headers });
  }
  if (!settled.ok) return refusalOf(settled.error, refuse);
  const paymentIntent = settled.value;

  const receipt = Receipt.serialize(
    Receipt.from({
      method: MPP_METHOD_NAME,
      reference: paymentIntent.id,
      status: "success",
      timestamp: new Date().toISOString(),
      externalId: resource.id,
    }),
  );
  headers.set("Cache-Control", "no-store");
  headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  if (!forwarded) {
    headers.set("Payment-Receipt", receipt);
    headers.set("Content-Type", "application/json");
    return new Response(JSON.stringify(resource.content ?? null), { status: 200, headers });
  }
  return forwardPaid(req, resource, paymentIntent.id, parsed.credential.raw.source ?? null, body, receipt, headers);
}

/** The paid request, forwarded once the payment committed; a failed forward is refunded (the payer keeps nothing it did not get). */
async function forwardPaid(
  req: Request,
  resource: PaidResource,
  paymentIntentId: string,
  payer: string | null,
  body: string | undefined,
  receipt: string,
  headers: Headers,
): Promise<Response> {
  const answer = await forwardPaidRequest(req, { resourceId: resource.id, url: resource.url!, paymentIntentId, payer, body });
  if (!answer.ok) {
    const scope = { merchantId: resource.merchantId, livemode: resource.livemode };
    const failure = `${answer.failure}${answer.status ? ` ${answer.status}` : ""}`;
    try {
      const refund = await transaction((tx) =>
        createRefund(tx, scope, { paymentIntentId, reason: `MPP paid resource: the merchant's server failed (${failure})` }),
      );
      return problemResponse("bad_gateway", {
        detail: `The merchant's server for paid resource ${resource.id} failed (${failure}); the payment ${paymentIntentId} was refunded (${refund.id}).`,
        extra: { reason: "forward_failed", paymentIntentId, refundId: refund.id },
        headers,
      });
    } catch (err) {
      // The refund itself failed (e.g. the rail is down): say so; the merchant sees the captured payment and can refund it.
      console.error(`[mpp] refunding ${paymentIntentId} after a failed forward failed:`, err instanceof Error ? err.message : err);
      return problemResponse("bad_gateway", {
        detail: `The merchant's server for paid resource ${resource.id} failed (${failure}), and refunding the payment ${paymentIntentId} failed too; the merchant can refund it.`,
        extra: { reason: "forward_failed", paymentIntentId, refundId: null },
        headers,
      });
    }
  }
  headers.set("Payment-Receipt", receipt);
  if (answer.contentType) headers.set("Content-Type", answer.contentType);
  return new Response(req.method === "HEAD" ? null : new Uint8Array(answer.body), { status: answer.status, headers });
}

function priced(resource: PaidResource) {
  return { id: resource.id, merchantId: resource.merchantId, amount: resource.amount, currency: resource.currency, name: resource.name };
}

/** A refusal of the settlement as the Payment scheme's problem; nothing was charged. */
function refusalOf(err: DomainError, refuse: (kind: ProblemKind, detail: string, extra?: Record<string, unknown>) => Response): Response {
  const reason = typeof err.details.reason === "string" ? err.details.reason : err.code.toLowerCase();
  const extra = { reason };
  if (reason === "challenge_used" || reason === "challenge_in_use") return refuse("invalid_challenge", err.message, extra);
  if (reason === "amount_exceeds_max") return refuse("payment_insufficient", err.message, extra);
  return refuse("verification_failed", err.message, extra);
}
