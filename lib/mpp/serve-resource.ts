// GET /mpp/r/:id: a hosted paid resource (xr_, lib/paid-resources) sold over the Payment HTTP authentication
// scheme with the service method (CONTRACT.md "MPP"). Public: the payment is the credential, and requests are
// limited per client IP. Without a credential: 402 + WWW-Authenticate: Payment (a fresh, single-use challenge
// bound to this resource and its price). With one: the challenge is checked (issued here, this resource, this
// price, not expired), then the token is redeemed once into a captured PaymentIntent (source "mpp", the
// resource's sale) in one transaction, and only after that commits is the content returned, with
// Payment-Receipt. Every refusal is an RFC 9457 problem body with a fresh challenge; nothing here is a 500
// unless something unexpected failed (and then nothing was charged: the transaction rolled back).
import { Receipt } from "mppx";
import { getDb, transaction } from "../db";
import { DomainError, RateLimitedError } from "../errors";
import type { PaidResource } from "../generated/prisma/client";
import { clientIpKey } from "../http/client-ip";
import { enforceRateLimit } from "../http/rate-limit-step";
import { findPublicPaidResource } from "../paid-resources/get-paid-resource";
import { MPP_METHOD_NAME } from "../sdk/mpp-method";
import { checkChallenge, issueChallenge } from "./challenge";
import { parseServiceCredential } from "./parse-credential";
import { EXPOSED_HEADERS, problemResponse, type ProblemKind } from "./problem";
import { settleCredential } from "./settle-credential";

export async function serveMppResource(req: Request, id: string): Promise<Response> {
  const headers = new Headers();
  try {
    await enforceRateLimit(`ip:${clientIpKey(req)}`, headers);
  } catch (err) {
    if (err instanceof RateLimitedError) return problemResponse("rate_limited", { detail: err.message, headers });
    throw err;
  }
  const resource = await findPublicPaidResource(getDb(), id);
  if (!resource) return problemResponse("not_found", { detail: `No such paid resource: '${id.slice(0, 80)}'`, headers });
  if (resource.content === null) {
    // A forwarded resource (url): not sold over MPP yet. Refused before any challenge, so nothing can be charged.
    return problemResponse("not_implemented", { detail: "This resource forwards to the merchant's URL; it is sold over x402 (/x402/r/:id), not MPP.", headers });
  }

  const refuse = (kind: ProblemKind, detail: string, extra?: Record<string, unknown>) =>
    problemResponse(kind, { detail, extra, headers, challenge: issueChallenge(priced(resource)) });

  const authorization = req.headers.get("authorization");
  if (!authorization || !/^payment(\s|$)/i.test(authorization.trim())) {
    return refuse("payment_required", `Payment is required (${resource.name}).`);
  }
  const parsed = parseServiceCredential(authorization);
  if (!parsed.ok) return refuse(parsed.problem, parsed.message);
  const check = checkChallenge(parsed.credential, priced(resource));
  if (!check.ok) return refuse(check.problem, check.message);

  const { challenge, spt } = parsed.credential;
  let settled;
  try {
    settled = await transaction(async (tx) => {
      try {
        const paymentIntent = await settleCredential(tx, { merchantId: resource.merchantId, livemode: resource.livemode }, {
          challengeId: challenge.id,
          resourceId: resource.id,
          expiresAt: check.expiresAt,
          amount: resource.amount,
          currency: resource.currency,
          description: resource.name,
          spt,
          sale: { paidResourceId: resource.id, payer: parsed.credential.raw.source ?? null },
        });
        return { paymentIntent };
      } catch (err) {
        if (err instanceof DomainError && err.commitsState) return { declined: err }; // a decline commits (PaymentIntent failed)
        throw err;
      }
    });
  } catch (err) {
    if (err instanceof DomainError) return refusalOf(err, refuse);
    console.error("[mpp] settling a credential failed:", err instanceof Error ? err.stack ?? err.message : err);
    return problemResponse("internal", { detail: "An internal error occurred; nothing was charged.", headers });
  }
  if ("declined" in settled && settled.declined) return refusalOf(settled.declined, refuse);
  const paymentIntent = settled.paymentIntent!;

  headers.set("Payment-Receipt", Receipt.serialize(Receipt.from({ method: MPP_METHOD_NAME, reference: paymentIntent.id, status: "success", timestamp: new Date().toISOString(), externalId: resource.id })));
  headers.set("Cache-Control", "no-store");
  headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify(resource.content ?? null), { status: 200, headers });
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
