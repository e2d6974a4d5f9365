// POST /mpp/verify: a merchant's own mppx server (mppx/server, mppx/nextjs with the SDK's serviceServerMethod)
// hands over a `service` credential for a challenge IT issued. The merchant's server has already checked the
// challenge's HMAC (its own secret) and that it matches the route; the service cannot (it does not know that
// secret), so what it enforces is its own part: the credential is well formed, of the service method, not
// expired, its challenge never settled before for this merchant (a replay), and the token pays the
// challenge's amount once (settleCredential). The answer carries the receipt the merchant's server sends. The same
// credential sent again (a lost answer) answers its first settlement again (`replayed: true`), never a second charge.
// An `evm` credential (mppx/evm) is settled by verify-merchant-evm.ts, outside any transaction (live: on chain).
import { transaction, type Db } from "../db";
import { DomainError, GoneError, keepCommittedState } from "../errors";
import type { Scope } from "../scope";
import { parseEvmCredential } from "./evm-charge";
import { credentialHashOf, decodeCredential, invalidCredential, parseServiceCredential } from "./parse-credential";
import { verifyMerchantEvmCredential } from "./verify-merchant-evm";
import { serviceReceiptOf } from "../receipts/service-receipt";
import { settleCredential } from "./settle-credential";
import { MPP_METHOD_NAME } from "agent-payments-sdk/mpp";

/** The route's entry: an evm credential on its own path; a service credential in ONE transaction (a decline commits). */
export async function verifyCredential(merchant: Scope, input: { credential: string }) {
  const decoded = decodeCredential(input.credential);
  const evm = decoded.ok ? parseEvmCredential(decoded) : null;
  if (evm && !evm.ok) throw invalidCredential(evm.message, evm.problem);
  if (evm) return verifyMerchantEvmCredential(merchant, evm.value);
  const settled = await transaction((tx) => keepCommittedState(() => verifyMerchantCredential(tx, merchant, input)));
  if (!settled.ok) throw settled.error;
  return settled.value;
}

export async function verifyMerchantCredential(tx: Db, merchant: Scope, input: { credential: string }) {
  const parsed = parseServiceCredential(input.credential);
  if (!parsed.ok) throw invalidCredential(parsed.message, parsed.problem);
  const { challenge, request, spt } = parsed.credential;
  const credentialHash = credentialHashOf(parsed.credential);
  const expiresAt = challenge.expires ? new Date(challenge.expires) : null;
  if (!expiresAt || Number.isNaN(expiresAt.getTime())) {
    throw new DomainError("VALIDATION_ERROR", "The challenge has no valid expires; challenges without an expiry are refused.", {
      reason: "malformed_credential",
      fields: [{ path: "credential", message: "challenge.expires is required" }],
    });
  }
  // Expired, unless this very credential paid already (a lost answer): then its first result, below.
  if (expiresAt.getTime() <= Date.now() && !(await paidBefore(tx, merchant, challenge.id, credentialHash))) {
    throw withDetails(new GoneError(`Challenge ${challenge.id} expired at ${challenge.expires}; nothing was charged.`), {
      reason: "challenge_expired",
      challengeId: challenge.id,
    });
  }
  const { paymentIntent, replayed } = await settleCredential(tx, merchant, {
    challengeId: challenge.id,
    resourceId: null,
    expiresAt,
    amount: Number(request.amount),
    currency: request.currency,
    description: request.description ?? challenge.description,
    spt,
    credentialHash,
  });
  // The receipt is the payment's, the same every time it is asked for (its capture time).
  return {
    object: "mpp_verification",
    challengeId: challenge.id,
    ...(replayed ? { replayed: true } : {}),
    receipt: {
      method: MPP_METHOD_NAME,
      reference: paymentIntent.id,
      status: "success",
      timestamp: paymentIntent.capturedAt ?? paymentIntent.createdAt,
      ...(request.externalId ? { externalId: request.externalId } : {}),
      ...(await serviceReceiptOf(tx, paymentIntent.id)),
    },
    paymentIntent,
  };
}

async function paidBefore(tx: Db, merchant: Scope, challengeId: string, credentialHash: string): Promise<boolean> {
  const used = await tx.mppChallenge.findUnique({
    where: { merchantId_livemode_challengeId: { merchantId: merchant.merchantId, livemode: merchant.livemode, challengeId } },
    select: { credentialHash: true },
  });
  return used?.credentialHash === credentialHash;
}

function withDetails(err: DomainError, details: Record<string, unknown>): DomainError {
  Object.assign(err.details, details);
  return err;
}
