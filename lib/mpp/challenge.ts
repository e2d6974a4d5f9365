// The service's own challenges for hosted resources (GET /mpp/r/:id). The id is mppx's HMAC-SHA256 under the
// service's key (lib/mpp/secret.ts) over realm|method|intent|request|expires|opaque, where the request names the
// resource (externalId = its xr_ id), its amount and currency and the merchant (recipient), and opaque carries
// a random nonce: every challenge is distinct, and a credential is bound to one resource at one price until
// `expires`. A challenge is single-use through the mpp_challenges table (settle-credential.ts).
import { Challenge } from "mppx";
import { randomBase62 } from "../ids";
import { MPP_INTENT, MPP_METHOD_NAME } from "agent-payments-sdk/mpp";
import { challengeSecret, mppRealm } from "./secret";
import type { ServiceCredential } from "./parse-credential";

/** How long a challenge may be answered. */
export const CHALLENGE_TTL_SECONDS = 300;

/** What a hosted resource sells (the paid-resource model's fields this needs). */
export interface PricedResource {
  id: string;
  merchantId: string;
  amount: number;
  currency: string;
  name?: string | null;
}

export function issueChallenge(resource: PricedResource, now = Date.now()) {
  return Challenge.from({
    secretKey: challengeSecret(),
    realm: mppRealm(),
    method: MPP_METHOD_NAME,
    intent: MPP_INTENT,
    request: {
      amount: String(resource.amount),
      currency: resource.currency.toLowerCase(),
      recipient: resource.merchantId,
      externalId: resource.id,
      ...(resource.name ? { description: resource.name.slice(0, 200) } : {}),
    },
    ...(resource.name ? { description: resource.name.slice(0, 200) } : {}),
    expires: new Date(now + CHALLENGE_TTL_SECONDS * 1000).toISOString(),
    meta: { nonce: randomBase62(22) },
  });
}

export type ChallengeCheck =
  { ok: true; expiresAt: Date } | { ok: false; problem: "invalid_challenge" | "payment_expired"; message: string };

/**
 * Whether a credential's challenge is one the service issued (HMAC), for THIS resource at its CURRENT price,
 * and not expired. Single use is the settlement's part.
 */
/** `paidBefore`: this very credential paid already (its answer is made again): its price and expiry stand as paid. */
export function checkChallenge(credential: ServiceCredential, resource: PricedResource, paidBefore = false): ChallengeCheck {
  const { challenge, request } = credential;
  let issued = false;
  try {
    issued = challenge.realm === mppRealm() && Challenge.verify(credential.raw.challenge, { secretKey: challengeSecret() });
  } catch {
    issued = false;
  }
  if (!issued) return { ok: false, problem: "invalid_challenge", message: "The challenge was not issued by this service." };
  if (request.externalId !== resource.id || request.recipient !== resource.merchantId) {
    return { ok: false, problem: "invalid_challenge", message: "The challenge is for another resource." };
  }
  if (!paidBefore && (request.amount !== String(resource.amount) || request.currency.toLowerCase() !== resource.currency.toLowerCase())) {
    return { ok: false, problem: "invalid_challenge", message: "The challenge's price is not this resource's price." };
  }
  const expiresAt = challenge.expires ? new Date(challenge.expires) : null;
  if (!expiresAt || Number.isNaN(expiresAt.getTime()))
    return { ok: false, problem: "invalid_challenge", message: "The challenge has no expiry." };
  if (!paidBefore && expiresAt.getTime() <= Date.now())
    return { ok: false, problem: "payment_expired", message: `The challenge expired at ${challenge.expires}.` };
  return { ok: true, expiresAt };
}
