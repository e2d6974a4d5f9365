// /mpp/r/:id: a hosted paid resource (xr_, lib/paid-resources) sold over the Payment HTTP authentication scheme with
// the service method (docs/mpp.md), by the one door of paid resources (lib/paid-sale/sell-paid-resource.ts) with
// MPP's part: without a credential, 402 + WWW-Authenticate: Payment (a fresh, single-use challenge bound to this
// resource and its price); with one, the challenge checked (issued here, this resource, this price, not expired),
// then the token redeemed once into a captured PaymentIntent (source "mpp", the resource's sale; settleCredential),
// the receipt in Payment-Receipt. Every answer but the paid content is an RFC 9457 problem body, a 402 with a
// fresh challenge, whatever the door or the pipeline throws included (404, 429, 400 body, 502 forward_failed,
// 503 database); nothing here is a 500 unless something unexpected failed (and then nothing was charged).
// A USD resource is also sold with mppx's `evm` charge method (evm-charge.ts): its 402 offers one evm challenge per
// network the merchant is payable on (test mode: Base Sepolia, offline; live: each payout address on a configured
// chain), and an evm credential is settled as the x402 payment its EIP-3009 authorization is (settle-evm.ts).
// A service credential whose charge is above its spending agent's approval threshold (docs/approvals.md) is answered
// 402 payment_required naming the pending request (approvalRequestId in the body, the Payment-Approval-Request
// header), nothing charged; the same credential sent again once a person approved gets the content of the payment
// the approval captured (settle-credential.ts), never a second charge.
import { Receipt } from "mppx";
import { MPP_METHOD_NAME } from "agent-payments-sdk/mpp";
import { canonicalJson } from "../canonical-json";
import { payableNetworks, type PayableNetwork } from "../chains/payable-networks";
import { getDb, transaction } from "../db";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "../db-availability";
import { setTimeout as sleep } from "node:timers/promises";
import { AnswerPendingError, BusyError, DomainError, keepCommittedState, SettlementPendingError, UpstreamError } from "../errors";
import type { PaidResource } from "../generated/prisma/client";
import type { HttpResult } from "../http/errors";
import { paidResourceRoute } from "../paid-sale/sell-paid-resource";
import { serviceReceiptOf } from "../receipts/service-receipt";
import type { RecordSale, Sale, SaleProtocol, Settled, Step } from "../paid-sale/sale-protocol";
import { checkChallenge, issueChallenge } from "./challenge";
import { checkEvmChallenge, EVM_METHOD, evmOffered, issueEvmChallenge, parseEvmCredential, type EvmCredential } from "./evm-charge";
import { credentialHashOf, decodeCredential, parseServiceCredential, type ServiceCredential } from "./parse-credential";
import { evmRefusalKind, settleEvmPayment, verifyEvmPayment, type EvmPayment } from "./settle-evm";
import { EXPOSED_HEADERS, isPaymentProblem, problemResponse, problemResult, type ProblemKind } from "./problem";
import { CredentialAwaitsApproval, settleCredential } from "./settle-credential";

/** A problem to answer: its kind, detail and extension members (a 402 gets a fresh challenge). */
interface Refusal {
  kind: ProblemKind;
  detail: string;
  extra?: Record<string, unknown>;
}

/** The header of a 402 whose charge waits for the payer's approval: the request's id (apr_). */
const APPROVAL_HEADER = "Payment-Approval-Request";

/** A credential of one of the two methods. */
type MppCredential = { method: "service"; credential: ServiceCredential } | { method: "evm"; credential: EvmCredential };

/** A credential whose challenge checked out for this resource. */
type Payment =
  | { method: "service"; credential: ServiceCredential; expiresAt: Date }
  | { method: "evm"; credential: EvmCredential; network: PayableNetwork; evm: EvmPayment };

/** Where the sale's resource is offered the evm method (loaded once per request by assertSells; none: service only). */
const evmNetworks = new WeakMap<Sale, PayableNetwork[]>();

const mppSale: SaleProtocol<MppCredential, Payment, Refusal> = {
  name: "mpp",
  headers: { "Cache-Control": "no-store", "Access-Control-Expose-Headers": EXPOSED_HEADERS },
  errorResult: mppErrorResult,
  async assertSells(sale) {
    const { resource } = sale;
    if (evmOffered(resource)) evmNetworks.set(sale, await payableNetworks(getDb(), resource.merchantId, resource.livemode));
  },
  unpaid: ({ resource }) => ({ kind: "payment_required", detail: `Payment is required (${resource.name}).` }),
  parse(req) {
    const authorization = req.headers.get("authorization");
    if (!authorization || !/^payment(\s|$)/i.test(authorization.trim())) return null;
    const decoded = decodeCredential(authorization);
    if (!decoded.ok) return refused(decoded.problem, decoded.message);
    const evm = parseEvmCredential(decoded);
    if (evm) return evm.ok ? { ok: true, value: { method: "evm", credential: evm.value } } : refused(evm.problem, evm.message);
    const parsed = parseServiceCredential(authorization);
    return parsed.ok ? { ok: true, value: { method: "service", credential: parsed.credential } } : refused(parsed.problem, parsed.message);
  },
  fingerprint: (c) => (c.method === "service" ? credentialHashOf(c.credential) : canonicalJson(c.credential.raw)),
  async verify(sale, c, paidBefore) {
    const { resource } = sale;
    if (c.method === "evm") return verifyEvm(sale, c.credential, paidBefore);
    // A credential that paid already has its answer made again, whatever its challenge's expiry or today's price.
    const check = checkChallenge(c.credential, resource, paidBefore);
    return check.ok
      ? { ok: true, value: { method: "service", credential: c.credential, expiresAt: check.expiresAt } }
      : refused(check.problem, check.message);
  },
  async settle({ resource }, payment, record) {
    if (payment.method === "evm") return settleEvm(resource, payment, record);
    // A duplicate of a credential being settled right now waits for it (its first result, below), 10 s at most.
    const deadline = Date.now() + 10_000;
    for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
      try {
        return await settleOnce(resource, payment, record);
      } catch (err) {
        if (!(err instanceof BusyError)) throw err;
        if (Date.now() > deadline) throw new AnswerPendingError(null); // being taken: never a 402 inviting a second payment
        await sleep(pause);
      }
    }
  },
  settleFailed(_sale, payment, err) {
    if (err instanceof AnswerPendingError) throw err; // 503 with Retry-After (mppErrorResult)
    // evm: sent and not yet confirmed (503, the same credential again later), or the chain unreachable (502, nothing
    // sent): never a 402, which would make the client sign a second authorization.
    if (payment.method === "evm" && (err instanceof SettlementPendingError || err instanceof UpstreamError)) throw err;
    if (err instanceof DomainError) return refusalOf(err);
    if (isDatabaseUnavailable(err)) throw err; // the pipeline's 503 (mppErrorResult)
    console.error("[mpp] settling a credential failed:", err instanceof Error ? (err.stack ?? err.message) : err);
    return { kind: "internal", detail: "An internal error occurred; nothing was charged." };
  },
  async receipt({ resource }, payment, settled, signed) {
    const receipt = Receipt.from({
      method: payment.method === "evm" ? EVM_METHOD : MPP_METHOD_NAME,
      // evm: the transaction that moved the USDC, as mppx's own evm server says (test mode: the PaymentIntent, no chain).
      reference: payment.method === "evm" ? (settled.onChain?.transaction ?? settled.paymentIntentId) : settled.paymentIntentId,
      status: "success",
      timestamp: new Date().toISOString(),
      externalId: resource.id,
      // The signed receipt (signed in the sale when it could be), kept in the JSON stock mppx parses.
      ...(signed ? { serviceReceipt: signed.jws } : await serviceReceiptOf(getDb(), settled.paymentIntentId)),
    });
    return { "Payment-Receipt": Receipt.serialize(receipt) };
  },
  refuse(sale, { kind, detail, extra }) {
    const { resource, headers } = sale;
    if (typeof extra?.approvalRequestId === "string") headers.set(APPROVAL_HEADER, extra.approvalRequestId);
    const challenges = isPaymentProblem(kind)
      ? { challenge: issueChallenge(resource), alternatives: (evmNetworks.get(sale) ?? []).map((n) => issueEvmChallenge(resource, n)) }
      : {};
    return problemResponse(kind, { detail, extra, headers, ...challenges });
  },
  methodNotAllowed: ({ headers }, allowed) => {
    headers.set("Allow", allowed.join(", "));
    return problemResponse("method_not_allowed", { detail: `This path takes ${allowed.join(" and ")} only.`, headers });
  },
};

/** An evm credential: its challenge (ours, this resource, the merchant's address, this price), then mppx's and x402's checks. */
async function verifyEvm(sale: Sale, credential: EvmCredential, paidBefore: boolean): Promise<Step<Payment, Refusal>> {
  const { resource } = sale;
  const networks = evmNetworks.get(sale) ?? [];
  if (networks.length === 0)
    return refused("method_unsupported", `Payment method "${EVM_METHOD}" is not offered for this resource; use "${MPP_METHOD_NAME}".`);
  const check = checkEvmChallenge(credential, resource, networks, paidBefore);
  if (!check.ok) return refused(check.problem, check.message);
  const scope = { merchantId: resource.merchantId, livemode: resource.livemode };
  const verified = await verifyEvmPayment(scope, credential, check.value, networks, { resourceId: resource.id, paidBefore });
  if (!verified.ok) return refused(verified.problem, verified.message);
  return { ok: true, value: { method: "evm", credential, network: check.value, evm: verified.value } };
}

/** The authorization settled (test mode offline, live on chain); sent but unconfirmed is 503, never a 402. */
async function settleEvm(resource: PaidResource, payment: Extract<Payment, { method: "evm" }>, record: RecordSale) {
  const scope = { merchantId: resource.merchantId, livemode: resource.livemode };
  const settled = await settleEvmPayment(scope, payment.evm, { paidResourceId: resource.id, name: resource.name, inClaim: record });
  if (settled.kind === "refused") {
    const { reason, message } = settled.refusal;
    return { ok: false as const, refusal: { kind: evmRefusalKind(reason), detail: message, extra: { reason } } };
  }
  if (settled.kind === "pending") throw new SettlementPendingError(settled.paymentIntentId, settled.transaction);
  const onChain = resource.livemode ? { onChain: { transaction: settled.transaction } } : {};
  const value: Settled = {
    paymentIntentId: settled.paymentIntentId,
    payer: payment.evm.verified.payer,
    replayed: settled.replayed,
    ...onChain,
  };
  return { ok: true as const, value };
}

/** ONE transaction; a decline commits (its PaymentIntent failed) and is answered as a refusal. */
async function settleOnce(
  resource: PaidResource,
  { credential, expiresAt }: Extract<Payment, { method: "service" }>,
  record: RecordSale,
): Promise<Step<Settled, Refusal>> {
  const payer = credential.raw.source ?? null;
  const settled = await transaction((tx) =>
    keepCommittedState(async () => {
      const result = await settleCredential(
        tx,
        { merchantId: resource.merchantId, livemode: resource.livemode },
        {
          challengeId: credential.challenge.id,
          resourceId: resource.id,
          expiresAt,
          amount: resource.amount,
          currency: resource.currency,
          description: resource.name,
          spt: credential.spt,
          credentialHash: credentialHashOf(credential),
          sale: { paidResourceId: resource.id, payer },
        },
      ).catch(async (err: unknown) => {
        // Recorded as a sale of this credential: its retry once approved is `paidBefore`, its challenge's expiry past.
        if (err instanceof CredentialAwaitsApproval) await record(tx, err.paymentIntentId);
        throw err;
      });
      if (!result.replayed) await record(tx, result.paymentIntent.id);
      return result;
    }),
  );
  if (!settled.ok) return { ok: false, refusal: refusalOf(settled.error) };
  return { ok: true, value: { paymentIntentId: settled.value.paymentIntent.id, payer, replayed: settled.value.replayed } };
}

function refused(kind: ProblemKind, detail: string): { ok: false; refusal: Refusal } {
  return { ok: false, refusal: { kind, detail } };
}

/** A refusal of the settlement as the Payment scheme's problem; nothing was charged. */
function refusalOf(err: DomainError): Refusal {
  const reason = typeof err.details.reason === "string" ? err.details.reason : err.code.toLowerCase();
  const extra = { reason };
  if (reason === "challenge_used" || reason === "challenge_in_use") return { kind: "invalid_challenge", detail: err.message, extra };
  if (reason === "amount_exceeds_max") return { kind: "payment_insufficient", detail: err.message, extra };
  if (reason === "approval_pending")
    return {
      kind: "payment_required",
      detail: err.message,
      extra: { reason, approvalRequestId: err.details.approvalRequestId, expiresAt: err.details.expiresAt },
    };
  return { kind: "verification_failed", detail: err.message, extra };
}

/** What the pipeline or the door threw, as a problem (never the /v1 error contract, which no MPP client reads). */
function mppErrorResult(err: unknown, requestId: string, headers: Headers): HttpResult {
  const [kind, detail, extra] = problemOf(err, requestId);
  return problemResult(kind, { detail, extra }, headers);
}

function problemOf(err: unknown, requestId: string): [ProblemKind, string, Record<string, unknown>?] {
  if (isDatabaseUnavailable(err)) {
    // Nothing was charged (a settlement commits or nothing does); the pipeline sets Retry-After.
    const detail = "The database is unavailable; nothing was charged. Retry after the time in the Retry-After header.";
    return ["service_unavailable", detail, { code: "CIRCUIT_OPEN", reason: DATABASE_UNAVAILABLE }];
  }
  if (err instanceof DomainError) {
    if (err.code === "RATE_LIMITED") return ["rate_limited", err.message];
    // A payment taken already: its answer not kept (409), or still being made (503 answer_pending, Retry-After).
    if (err.code === "CONFLICT") return ["conflict", err.message, err.details];
    if (err.code === "CIRCUIT_OPEN") return ["service_unavailable", err.message, { code: err.code, ...err.details }];
    if (err.code === "NOT_FOUND") return ["not_found", `No such paid resource: '${String(err.details.id ?? "").slice(0, 80)}'`];
    if (err.code === "VALIDATION_ERROR") return ["bad_request", err.message]; // the body to forward (size, UTF-8)
    if (err.code === "UPSTREAM_ERROR") return ["bad_gateway", err.message, err.details]; // forward_failed, refunded
  }
  console.error(`[${requestId}] [mpp] unhandled error:`, err instanceof Error ? (err.stack ?? err.message) : err);
  return ["internal", "An internal error occurred; nothing was charged."];
}

export const serveMppResource = paidResourceRoute(mppSale);
