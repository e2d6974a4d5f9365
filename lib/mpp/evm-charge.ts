// MPP's EVM charge method (mppx/evm; docs/mpp.md, "The evm method") for the hosted resources (/mpp/r/:id) and
// POST /mpp/verify. Its credential is a signed EIP-3009 TransferWithAuthorization of USDC straight to the merchant,
// whose nonce is keccak256(challenge id + realm): an authorization answers one challenge only. The method's own
// server-side check (mppx/evm/server's `validate`: amount, recipient, the nonce's challenge binding, the time window,
// the EIP-712 signature, the source) is run as mppx runs it (Method.validateCredential); what is ours is the
// binding to our challenge and to the merchant's payout address, and the glue to the x402 payment the service
// already settles: the same authorization in x402 `exact` form (mppx's own mapping, x402/server/EvmCharge.js
// `facilitatorPayment`), settled by settleVerifiedPayment (test mode offline, live mode on chain: the claim, the
// official facilitator, the x402-evm rail), recorded with source "mpp". Single use is the authorization's claim
// (x402_authorizations, unique on network + token + payer + nonce), so also the challenge's.
import { Challenge, Errors, Method, type Credential } from "mppx";
import { charge as evmCharge, Types as EvmTypes } from "mppx/evm";
import { charge as evmServerCharge } from "mppx/evm/server";
import { formatUnits, getAddress } from "viem";
import type { PayableNetwork } from "../chains/payable-networks";
import type { PaidResource } from "../generated/prisma/client";
import { randomBase62 } from "../ids";
import { paidResourceUrl } from "../paid-resources/paid-content";
import { centsToAtomic, MAX_TIMEOUT_SECONDS, SCHEME } from "../x402/networks";
import type { SignedPayment } from "../x402/settle-on-chain";
import { CHALLENGE_TTL_SECONDS } from "./challenge";
import type { DecodedCredential } from "./parse-credential";
import type { ProblemKind } from "./problem";
import { challengeSecret, mppRealm } from "./secret";

export const EVM_METHOD = EvmTypes.paymentMethod; // "evm"
const USDC_DECIMALS = 6;

export interface EvmCredential {
  raw: Credential.Credential;
  challenge: { id: string; realm: string; expires?: string };
  request: EvmTypes.ChargeRequest;
  payload: EvmTypes.AuthorizationPayload;
}

export type EvmStep<T> = { ok: true; value: T } | { ok: false; problem: ProblemKind; message: string };

/** Whether a resource is offered the evm method (on every network its merchant is payable on): USD-priced, fixed price. */
export function evmOffered(resource: Pick<PaidResource, "currency" | "scheme">): boolean {
  return resource.currency.toUpperCase() === "USD" && resource.scheme !== "upto";
}

/** The service's evm challenge of a hosted resource on one network: its price in USDC to the merchant's address there. */
export function issueEvmChallenge(resource: PaidResource, network: PayableNetwork, now = Date.now()) {
  const description = resource.name ? resource.name.slice(0, 200) : undefined;
  return Challenge.fromMethod(evmCharge, {
    secretKey: challengeSecret(),
    realm: mppRealm(),
    request: {
      amount: formatUnits(centsToAtomic(resource.amount), USDC_DECIMALS),
      chainId: network.chainId,
      currency: network.asset,
      decimals: USDC_DECIMALS,
      recipient: network.payTo,
      externalId: resource.id,
      ...(description ? { description } : {}),
    },
    ...(description ? { description } : {}),
    expires: new Date(now + CHALLENGE_TTL_SECONDS * 1000).toISOString(),
    meta: { nonce: randomBase62(22) },
  });
}

/** An evm credential read with the method's schemas; null when the credential is of another method. */
export function parseEvmCredential(decoded: Extract<DecodedCredential, { ok: true }>): EvmStep<EvmCredential> | null {
  const { raw, challenge } = decoded;
  if (challenge.method !== EVM_METHOD) return null;
  if (challenge.intent !== EvmTypes.chargeIntent)
    return fail("method_unsupported", `Intent "${String(challenge.intent)}" is not supported; use "${EvmTypes.chargeIntent}".`);
  const request = EvmTypes.ChargeRequestSchema.safeParse(challenge.request);
  if (!request.success) return fail("invalid_challenge", "The challenge's request is not an evm charge request.");
  const payload = EvmTypes.ChargePayloadSchema.safeParse(raw.payload);
  if (!payload.success) return fail("invalid_payload", "The payload must be an evm `authorization` (EIP-3009, signed).");
  return { ok: true, value: { raw, challenge, request: request.data, payload: payload.data } };
}

/** The network of the credential's request among the merchant's (chain id and token). */
export function networkOf(credential: EvmCredential, networks: PayableNetwork[]): PayableNetwork | null {
  const { chainId } = credential.request.methodDetails;
  return networks.find((n) => n.chainId === chainId && sameAddress(n.asset, credential.request.currency)) ?? null;
}

/**
 * A hosted resource's credential: its challenge issued here (HMAC, realm), for this resource, on a network the
 * merchant is payable on, to its address at the current price, not expired. `paidBefore`: the credential paid already
 * (its answer is made again): its price, recipient and expiry stand as paid.
 */
export function checkEvmChallenge(
  credential: EvmCredential,
  resource: PaidResource,
  networks: PayableNetwork[],
  paidBefore: boolean,
): EvmStep<PayableNetwork> {
  if (!issuedHere(credential)) return fail("invalid_challenge", "The challenge was not issued by this service.");
  const { request } = credential;
  if (request.externalId !== resource.id) return fail("invalid_challenge", "The challenge is for another resource.");
  const network = networkOf(credential, networks);
  if (!network) return fail("invalid_challenge", "The challenge's chain or token is not one this merchant is paid on.");
  if (!paidBefore && !sameAddress(request.recipient, network.payTo))
    return fail("invalid_challenge", "The challenge's recipient is not the merchant's payout address.");
  if (!paidBefore && request.amount !== centsToAtomic(resource.amount).toString())
    return fail("invalid_challenge", "The challenge's price is not this resource's price.");
  const expires = credential.challenge.expires ? new Date(credential.challenge.expires) : null;
  if (!expires || Number.isNaN(expires.getTime())) return fail("invalid_challenge", "The challenge has no expiry.");
  if (!paidBefore && expires.getTime() <= Date.now())
    return fail("payment_expired", `The challenge expired at ${credential.challenge.expires}.`);
  return { ok: true, value: network };
}

function issuedHere(credential: EvmCredential): boolean {
  try {
    return credential.challenge.realm === mppRealm() && Challenge.verify(credential.raw.challenge, { secretKey: challengeSecret() });
  } catch {
    return false;
  }
}

/** mppx/evm/server's verification of the credential (nothing is written, nothing read from the chain). */
export async function validateEvmCredential(credential: EvmCredential, network: PayableNetwork): Promise<EvmStep<null>> {
  const method = evmServerCharge({
    chainId: network.chainId,
    currency: network.asset,
    decimals: USDC_DECIMALS,
    recipient: network.payTo,
    authorization: network.extra,
    // Never called: the money moves through the service's own settlement (settleVerifiedPayment), not mppx's broadcast.
    settle: () => Promise.reject(new Error("evm credentials are settled by the service's chain path")),
  });
  try {
    await Method.validateCredential([method], credential.raw);
    return { ok: true, value: null };
  } catch (err) {
    if (!(err instanceof Errors.PaymentError)) throw err;
    return fail(problemOf(err), err.message);
  }
}

function problemOf(err: Errors.PaymentError): ProblemKind {
  if (err instanceof Errors.PaymentExpiredError) return "payment_expired";
  if (err instanceof Errors.InvalidChallengeError) return "invalid_challenge";
  if (err instanceof Errors.InvalidPayloadError) return "invalid_payload";
  return "verification_failed";
}

/**
 * The authorization as the x402 `exact` payment it is (mppx's own mapping to an x402 facilitator), for checkPayment and
 * settleVerifiedPayment; `resourceId`: the hosted resource it pays, if any.
 */
export function evmSignedPayment(credential: EvmCredential, network: PayableNetwork, resourceId: string | null): SignedPayment {
  const { request, payload } = credential;
  const paymentRequirements = {
    scheme: SCHEME,
    network: network.caip2,
    amount: request.amount,
    asset: getAddress(request.currency),
    payTo: getAddress(request.recipient),
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: { ...network.extra },
  };
  const description = request.description ?? null;
  const resource = resourceId
    ? { resource: { url: paidResourceUrl("mpp", resourceId), ...(description ? { description } : {}) } }
    : description
      ? { resource: { description } }
      : {};
  const paymentPayload = {
    x402Version: 2,
    accepted: paymentRequirements,
    ...resource,
    payload: {
      authorization: {
        from: payload.from,
        to: payload.to,
        value: payload.value,
        validAfter: payload.validAfter,
        validBefore: payload.validBefore,
        nonce: payload.nonce,
      },
      signature: payload.signature,
    },
  };
  return { paymentPayload, paymentRequirements };
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function fail(problem: ProblemKind, message: string): { ok: false; problem: ProblemKind; message: string } {
  return { ok: false, problem, message };
}
