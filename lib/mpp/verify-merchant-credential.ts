// POST /mpp/verify: a merchant's own mppx server (mppx/server, mppx/nextjs with the SDK's serviceServerMethod)
// hands over a `service` credential for a challenge IT issued. The merchant's server has already checked the
// challenge's HMAC (its own secret) and that it matches the route; the service cannot (it does not know that
// secret), so what it enforces is its own part: the credential is well formed, of the service method, not
// expired, its challenge never settled before for this merchant (a replay), and the token pays the
// challenge's amount once (settleCredential). The answer carries the receipt the merchant's server sends.
import type { Db } from "../db";
import { DomainError, GoneError } from "../errors";
import type { Scope } from "../scope";
import { parseServiceCredential } from "./parse-credential";
import { settleCredential } from "./settle-credential";
import { MPP_METHOD_NAME } from "agent-payments-sdk/mpp";

export async function verifyMerchantCredential(tx: Db, merchant: Scope, input: { credential: string }) {
  const parsed = parseServiceCredential(input.credential);
  if (!parsed.ok) {
    throw new DomainError("VALIDATION_ERROR", parsed.message, {
      reason: parsed.problem,
      fields: [{ path: "credential", message: parsed.message }],
    });
  }
  const { challenge, request, spt } = parsed.credential;
  const expiresAt = challenge.expires ? new Date(challenge.expires) : null;
  if (!expiresAt || Number.isNaN(expiresAt.getTime())) {
    throw new DomainError("VALIDATION_ERROR", "The challenge has no valid expires; challenges without an expiry are refused.", {
      reason: "malformed_credential",
      fields: [{ path: "credential", message: "challenge.expires is required" }],
    });
  }
  if (expiresAt.getTime() <= Date.now()) {
    throw withDetails(new GoneError(`Challenge ${challenge.id} expired at ${challenge.expires}; nothing was charged.`), {
      reason: "challenge_expired",
      challengeId: challenge.id,
    });
  }
  const paymentIntent = await settleCredential(tx, merchant, {
    challengeId: challenge.id,
    resourceId: null,
    expiresAt,
    amount: Number(request.amount),
    currency: request.currency,
    description: request.description ?? challenge.description,
    spt,
  });
  return {
    object: "mpp_verification",
    challengeId: challenge.id,
    receipt: {
      method: MPP_METHOD_NAME,
      reference: paymentIntent.id,
      status: "success",
      timestamp: new Date().toISOString(),
      ...(request.externalId ? { externalId: request.externalId } : {}),
    },
    paymentIntent,
  };
}

function withDetails(err: DomainError, details: Record<string, unknown>): DomainError {
  Object.assign(err.details, details);
  return err;
}
