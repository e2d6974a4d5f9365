// The service's MPP payment method (the `Payment` HTTP authentication scheme, mppx): method `service`, intent
// `charge`, credential payload `{ spt: "spt_..." }`. ONE definition (`service`, made with mppx's Method.from)
// is imported by both sides:
//
//   payer:    Mppx.create({ methods: [serviceClientMethod({ token })], polyfill: false })   (mppx/client)
//   merchant: Mppx.create({ methods: [serviceServerMethod({ client })], secretKey })      (mppx/server, mppx/nextjs)
//
// The payer's agent answers a challenge with a shared payment token scoped to it (mintTokenFor mints one per
// challenge with the payer's own key: maxAmount = the challenge's amount, merchantId = its recipient). The
// merchant's server hands the credential to POST /mpp/verify, which redeems the token once into a captured
// PaymentIntent (source "mpp") and refuses a challenge it has seen before; its answer becomes the receipt.
// The service's hosted resources (GET /mpp/r/:id) issue and check challenges of this method themselves.
import { Credential, Errors, Method, Receipt, z } from "mppx";
import type { ServiceClient } from "./client";
import { ServiceError } from "./errors";
import type { PaymentIntent, SharedPaymentToken } from "./types";

/** The method's name on the wire (`method="service"`) and its one intent. */
export const MPP_METHOD_NAME = "service";
export const MPP_INTENT = "charge";

/**
 * The payment method definition. Request: `amount` in the currency's minor units (a base-units string, as the
 * charge intent says), `currency` (e.g. "usd"), `recipient` (the merchant's `mer_` id: the token must be
 * scoped to it), optional `description` and `externalId` (the hosted resource's `xr_` id). Credential
 * payload: `{ spt }`, a shared payment token of the payer.
 */
export const service = Method.from({
  name: MPP_METHOD_NAME,
  intent: MPP_INTENT,
  schema: {
    request: z.object({
      amount: z.string().check(z.regex(/^[1-9][0-9]{0,9}$/, "a positive whole number of minor units")),
      currency: z.string().check(z.regex(/^[A-Za-z]{3}$/, "a three-letter currency code")),
      recipient: z.optional(z.string()),
      description: z.optional(z.string()),
      externalId: z.optional(z.string()),
    }),
    credential: {
      payload: z.object({ spt: z.string().check(z.regex(/^spt_[0-9A-Za-z]{1,64}$/, "a shared payment token id (spt_...)")) }),
    },
  },
});
export type ServiceMethod = typeof service;

/** What a challenge of the service method asks for (its decoded `request`). */
export interface ServiceChargeRequest {
  amount: string;
  currency: string;
  recipient?: string;
  description?: string;
  externalId?: string;
}

/** A challenge of the service method, as the client method receives it. */
export interface ServiceChallenge {
  id: string;
  realm: string;
  method: string;
  intent: string;
  expires?: string;
  request: ServiceChargeRequest;
}

export interface ServiceClientMethodOptions {
  /** The shared payment token (`spt_...`) that pays this challenge; e.g. mintTokenFor(payerClient, ...). */
  token: (challenge: ServiceChallenge) => string | Promise<string>;
}

/** The payer side: answers a `service` challenge with `{ spt }`. Pass it to mppx/client's Mppx.create. */
export function serviceClientMethod(options: ServiceClientMethodOptions) {
  return Method.toClient(service, {
    async createCredential({ challenge }) {
      const spt = await options.token(challenge as ServiceChallenge);
      return Credential.serialize({ challenge, payload: { spt } });
    },
  });
}

export interface MintTokenForOptions {
  /** What the token charges: a test payment method (pm_card_visa), a test card number, or the payer's own cus_ wallet. */
  paymentMethod: string;
  /** Seconds the token lives (default: until the challenge expires, else the service's default of one hour). */
  expiresInSeconds?: number;
  /** Called with each minted token (e.g. to keep its id for a receipt or a revoke). */
  onMint?: (token: SharedPaymentToken, challenge: ServiceChallenge) => void;
}

/**
 * A `token` function for serviceClientMethod that mints, with the PAYER's own client, a token scoped to the
 * challenge: exactly its amount and currency, only for its recipient merchant. A challenge asking for more
 * than the payer allows should be refused before this runs (wrap it and throw).
 */
export function mintTokenFor(payer: ServiceClient, options: MintTokenForOptions) {
  return async (challenge: ServiceChallenge): Promise<string> => {
    const { amount, currency, recipient } = challenge.request;
    const expiresAt =
      options.expiresInSeconds !== undefined
        ? new Date(Date.now() + options.expiresInSeconds * 1000).toISOString()
        : challenge.expires && Date.parse(challenge.expires) > Date.now()
          ? new Date(Date.parse(challenge.expires) + 60_000).toISOString()
          : undefined;
    const token = await payer.sharedPaymentTokens.create({
      paymentMethod: options.paymentMethod,
      maxAmount: Number(amount),
      currency,
      ...(recipient ? { merchantId: recipient } : {}),
      ...(expiresAt ? { expiresAt } : {}),
    });
    options.onMint?.(token, challenge);
    return token.id;
  };
}

/** The answer of POST /mpp/verify. */
export interface MppVerification {
  object: "mpp_verification";
  challengeId: string;
  /** What the receipt says: method "service", reference = the captured PaymentIntent's id. */
  receipt: { method: string; reference: string; status: "success"; timestamp: string; externalId?: string; serviceReceipt?: string };
  paymentIntent: PaymentIntent;
}

export interface ServiceServerMethodOptions<D extends Partial<ServiceChargeRequest> = Record<never, never>> {
  /** A ServiceClient with the MERCHANT's secret key (the merchant that issues the challenges). */
  client: ServiceClient;
  /** Request defaults for every route (e.g. `{ currency: "usd", recipient: "mer_..." }`); routes may then omit them. */
  defaults?: D;
}

/**
 * The merchant side, for mppx/server or mppx/nextjs: settles a credential through POST /mpp/verify and
 * returns its receipt. The service refuses a challenge id it has already settled for this merchant (a
 * replayed credential), an expired challenge, and anything the token does not allow; each refusal becomes
 * the mppx error whose problem type says why, and mppx answers 402 with a fresh challenge. A charge held for the
 * payer's approval is refused too (nothing charged yet), its problem's `details` naming the approval request
 * (MppApprovalPendingDetails): the same credential, sent again once approved, gets the approval's payment.
 */
export function serviceServerMethod<const D extends Partial<ServiceChargeRequest> = Record<never, never>>(
  options: ServiceServerMethodOptions<D>,
): Method.Server<ServiceMethod, D> {
  return Method.toServer<ServiceMethod, D>(service, {
    defaults: options.defaults as D,
    async broadcast({ credential }) {
      let verification: MppVerification;
      try {
        verification = await options.client.request<MppVerification>("POST", "/mpp/verify", {
          credential: Credential.serialize(credential),
        });
      } catch (err) {
        throw toPaymentError(err, credential.challenge.id, credential.challenge.expires);
      }
      return Receipt.from(verification.receipt);
    },
  });
}

/**
 * The `details` of the 402 problem mppx answers when the charge waits for the payer's approval (docs/approvals.md
 * "REST redemption and POST /mpp/verify"): the approval request's id, which the payer polls
 * (`GET /v1/approval_requests/:id` with its own key) or shows, and when it expires. The problem stays
 * `verification-failed`, as every refusal of verify; these details are what tells it apart.
 */
export interface MppApprovalPendingDetails {
  reason: "approval_pending";
  approvalRequestId: string;
  /** Absent when the service did not say (a second credential of a token that already waits: 409). */
  expiresAt?: string;
}

/** The approval the service says the charge waits for, or null. */
function approvalPendingOf(err: ServiceError): MppApprovalPendingDetails | null {
  const { reason, approvalRequestId, expiresAt } = err.details;
  if (reason !== "approval_pending" || typeof approvalRequestId !== "string") return null;
  return { reason, approvalRequestId, ...(typeof expiresAt === "string" ? { expiresAt } : {}) };
}

/** A refusal of POST /mpp/verify as the mppx error of the same meaning; anything else stays as it is (mppx: 500). */
function toPaymentError(err: unknown, challengeId: string, expires: string | undefined): unknown {
  if (!(err instanceof ServiceError) || err.status === 0 || err.status >= 500 || err.status === 401 || err.status === 429) return err;
  // Held for the payer's approval: its id travels in the 402 problem's `details`, so the paying client can follow it.
  const pending = approvalPendingOf(err);
  if (pending) return new Errors.VerificationFailedError({ reason: err.message, details: { ...pending } });
  const reason = typeof err.details.reason === "string" ? err.details.reason : err.code;
  if (reason === "challenge_used" || reason === "challenge_in_use")
    return new Errors.InvalidChallengeError({ id: challengeId, reason: err.message });
  if (reason === "challenge_expired") return new Errors.PaymentExpiredError({ expires });
  if (reason === "malformed_credential") return new Errors.MalformedCredentialError({ reason: err.message });
  if (reason === "method_unsupported") return new Errors.PaymentMethodUnsupportedError({});
  if (reason === "amount_exceeds_max") return new Errors.PaymentInsufficientError({ reason: err.message });
  return new Errors.VerificationFailedError({ reason: err.message });
}
