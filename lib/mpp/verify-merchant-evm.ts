// POST /mpp/verify with an `evm` credential (docs/mpp.md, "The evm method"): a merchant's own mppx server
// (mppx/evm/server's charge, its `settle` hook calling this) hands over a credential for a challenge IT issued. The
// merchant's server has checked its challenge's HMAC and route; what the service enforces is its own part: the
// request's chain and token are ones this merchant is paid on, the recipient is its payout address (test mode: its
// Base Sepolia address), mppx's own verification of the authorization, then the settlement (settle-evm.ts): test mode
// offline, live mode on chain, a captured PaymentIntent with source "mpp". Runs outside any transaction: a live
// settlement waits on the chain between its own transactions. The same credential sent again (a lost answer)
// answers its first settlement (`replayed: true`); the authorization under another credential is refused as used.
import { payableNetworks } from "../chains/payable-networks";
import { getPaymentIntent } from "../checkouts/read-orders-and-payments";
import { getDb } from "../db";
import { ConflictError, PaymentDeclinedError, SettlementPendingError } from "../errors";
import { serviceReceiptOf } from "../receipts/service-receipt";
import type { Scope } from "../scope";
import { readClaim } from "../x402/chain-claims";
import { payloadHashOf } from "../x402/replays";
import { EVM_METHOD, evmSignedPayment, networkOf, type EvmCredential } from "./evm-charge";
import { invalidCredential } from "./parse-credential";
import { evmRefusalKind, settleEvmPayment, verifyEvmPayment } from "./settle-evm";

export async function verifyMerchantEvmCredential(merchant: Scope, credential: EvmCredential) {
  const networks = await payableNetworks(getDb(), merchant.merchantId, merchant.livemode);
  const network = networkOf(credential, networks);
  const { request, challenge, payload } = credential;
  if (!network)
    throw invalidCredential(
      `Chain ${request.methodDetails.chainId} with token ${request.currency} is not one this merchant is paid on in ${merchant.livemode ? "live" : "test"} mode (GET /x402/supported).`,
      "invalid_challenge",
    );
  if (request.recipient.toLowerCase() !== network.payTo.toLowerCase())
    throw invalidCredential(
      `The challenge's recipient must be this merchant's address ${network.payTo} on ${network.caip2}.`,
      "invalid_challenge",
    );
  // Paid before (this very authorization, a lost answer): its first result, whatever the clock says now.
  const claim = await readClaim(getDb(), {
    network: network.caip2,
    asset: network.asset.toLowerCase(),
    payer: payload.from.toLowerCase(),
    nonce: payload.nonce.toLowerCase(),
  });
  const paidBefore = claim?.payloadHash === payloadHashOf(evmSignedPayment(credential, network, null).paymentPayload);
  const verified = await verifyEvmPayment(merchant, credential, network, networks, { resourceId: null, paidBefore });
  if (!verified.ok) throw invalidCredential(verified.message, verified.problem);

  const name = (request.description ?? `MPP ${EVM_METHOD} charge`).slice(0, 256);
  const settled = await settleEvmPayment(merchant, verified.value, { name });
  if (settled.kind === "pending") throw new SettlementPendingError(settled.paymentIntentId, settled.transaction);
  if (settled.kind === "refused") {
    const { reason, message } = settled.refusal;
    if (evmRefusalKind(reason) === "invalid_challenge")
      throw new ConflictError(`Challenge ${challenge.id}'s authorization has already been used; nothing was charged.`, {
        reason: "challenge_used",
        challengeId: challenge.id,
      });
    throw new PaymentDeclinedError(reason, message);
  }
  const paymentIntent = await getPaymentIntent(getDb(), merchant, settled.paymentIntentId);
  return {
    object: "mpp_verification",
    challengeId: challenge.id,
    ...(settled.replayed ? { replayed: true } : {}),
    // mppx/evm/server's receipt: the transaction that moved the USDC (test mode: the PaymentIntent, no chain).
    receipt: {
      method: EVM_METHOD,
      reference: settled.transaction,
      status: "success",
      timestamp: paymentIntent.capturedAt ?? paymentIntent.createdAt,
      ...(request.externalId ? { externalId: request.externalId } : {}),
      ...(await serviceReceiptOf(getDb(), paymentIntent.id)),
    },
    paymentIntent,
  };
}
