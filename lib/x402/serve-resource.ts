// A hosted paid resource over x402 (docs/x402.md): public at /x402/r/:id (the payment is the credential), sold by
// the one door of paid resources (lib/paid-sale/sell-paid-resource.ts) with x402's part: unpaid, 402 with
// PAYMENT-REQUIRED (standard base64 of the v2 PaymentRequired; a listed resource's declares the `bazaar` extension)
// and the v1 JSON body { x402Version: 1, error, accepts } (one requirement per payable network: payable-networks.ts);
// paid, PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1) checked (checkPayment) and settled into a captured PaymentIntent (settleVerifiedPayment: test mode at once,
// live mode on chain; a test-mode settlement that fails on our side: 402 with the reason and a failed
// PAYMENT-RESPONSE, settle-failure.ts); the receipt in PAYMENT-RESPONSE and X-PAYMENT-RESPONSE. What the door
// throws (404, 409 currency or no payable network, 429, 502 forward_failed or the chain down, 503 settlement
// pending) is in the service's error contract.
import { BAZAAR } from "@x402/extensions/bazaar";
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { getDb } from "../db";
import { AnswerPendingError, ConflictError, SettlementPendingError } from "../errors";
import type { PaidResource } from "../generated/prisma/client";
import { paidResourceRoute } from "../paid-sale/sell-paid-resource";
import type { Sale, SaleProtocol } from "../paid-sale/sale-protocol";
import { bazaarExtension } from "../paid-resources/discovery";
import { paidResourceUrl } from "../paid-resources/paid-content";
import { checkPayment, type VerifiedPayment } from "./check-payment";
import { decodeHeader, encodeHeader, MAX_PAYMENT_HEADER_CHARS } from "./encoding";
import { centsToAtomic, MAX_TIMEOUT_SECONDS, SCHEME } from "./networks";
import { payableNetworks, type PayableNetwork } from "../chains/payable-networks";
import { settleReceipts } from "./receipts";
import { canonicalPayload, PAYMENT_IDENTIFIER_CONFLICT } from "./replays";
import { settleVerifiedPayment } from "./settle";
import { failedSettleResponse, settleFailureOf, UNEXPECTED_SETTLE_ERROR } from "./settle-failure";
import type { SignedPayment } from "./settle-on-chain";
import { settleResponse } from "./settle-payment";
import { meteredSale } from "../paid-sale/sell-metered";
import { uptoSale } from "./serve-upto";
import { uptoRequirements } from "./upto";

export const PAYMENT_REQUIRED_HEADER = "PAYMENT-REQUIRED";
export const PAYMENT_RESPONSE_HEADERS = ["PAYMENT-RESPONSE", "X-PAYMENT-RESPONSE"] as const;
/** The approval request (apr_) a payment waits for (docs/approvals.md "x402"), as MPP names it. */
export const PAYMENT_APPROVAL_REQUEST_HEADER = "Payment-Approval-Request";
const EXPOSED = `PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-PAYMENT-RESPONSE, ${PAYMENT_APPROVAL_REQUEST_HEADER}`;

/** The x402 requirements of a resource on each network it is payable on, v2 and v1 (v1 only where the chain has a v1 name). */
export function resourceRequirements(resource: PaidResource, networks: PayableNetwork[]) {
  const url = paidResourceUrl("x402", resource.id);
  const description = resource.description ?? resource.name;
  const mimeType = resource.url ? "" : "application/json";
  const amount = centsToAtomic(resource.amount).toString();
  // A usage-priced resource asks for its maximum under scheme `upto` (x402 v2 only: upto.ts).
  if (resource.scheme === "upto") return { resource: { url, description, mimeType }, v2: uptoRequirements(resource, networks), v1: [] };
  const v2 = networks.map((network) => ({
    scheme: SCHEME,
    network: network.caip2,
    amount,
    asset: network.asset,
    payTo: network.payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: { ...network.extra },
  }));
  const v1 = networks.flatMap((network) =>
    network.v1Name
      ? [
          {
            scheme: SCHEME,
            network: network.v1Name,
            maxAmountRequired: amount,
            resource: url,
            description,
            mimeType,
            payTo: network.payTo,
            maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
            asset: network.asset,
            extra: { ...network.extra },
            ...v1Discovery(resource),
          },
        ]
      : [],
  );
  return { resource: { url, description, mimeType }, v2, v1 };
}

/** Where the sale's merchant is paid (loaded once per request by assertSells). */
const saleNetworks = new WeakMap<Sale, PayableNetwork[]>();

function networksOf(sale: Sale): PayableNetwork[] {
  const networks = saleNetworks.get(sale);
  if (!networks) throw new Error("x402 sale read before assertSells loaded its networks");
  return networks;
}

/** The requirements the payment names among the resource's (by network and version). */
function requirementsFor(sale: Sale, version: 1 | 2, payload: { network?: unknown; accepted?: { network?: unknown } }) {
  const terms = resourceRequirements(sale.resource, networksOf(sale));
  if (version === 2) return terms.v2.find((r) => r.network === payload.accepted?.network) ?? terms.v2[0];
  return terms.v1.find((r) => r.network === payload.network) ?? terms.v1[0];
}

/** A 402's reason (x402's `error`), its message, and the failed settle response of a payment that was tried. */
interface Refusal {
  error: string;
  message: string;
  settlement?: object;
  /** The payment waits for the payer's approval (error approval_pending): the request named in the 402. */
  approval?: { approvalRequestId: string; expiresAt: string };
}

/** The payment header, decoded to its envelope (its version checked; the rest is checkPayment's). */
interface Envelope {
  version: 1 | 2;
  payload: object;
}

/** A verified payment, with what the payer sent (the official scheme settles it whole in live mode). */
interface Payment {
  verified: VerifiedPayment;
  signed: SignedPayment;
}

const x402Sale: SaleProtocol<Envelope, Payment, Refusal> = {
  name: "x402",
  headers: { "Access-Control-Expose-Headers": EXPOSED },
  async assertSells(sale) {
    const { resource } = sale;
    if (resource.currency !== "USD")
      throw new ConflictError(
        `Paid resource ${resource.id} is priced in ${resource.currency}; x402 pays in USDC, so only USD-priced resources are sold here (MPP: /mpp/r/${resource.id}).`,
        { reason: "currency_not_supported" },
      );
    const networks = await payableNetworks(getDb(), resource.merchantId, resource.livemode);
    if (networks.length === 0)
      throw new ConflictError(
        `Paid resource ${resource.id} has no network to be paid on over x402: its merchant has no payout address on a live network this service settles on.`,
        { reason: "no_payable_network" },
      );
    saleNetworks.set(sale, networks);
  },
  unpaid: () => ({ error: "Payment required", message: "Pay with PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT (v1)." }),
  parse(req) {
    const header = req.headers.get("payment-signature") ?? req.headers.get("x-payment");
    if (header === null) return null;
    if (header.length > MAX_PAYMENT_HEADER_CHARS) return refused("invalid_payload", "The payment header is too large.");
    const decoded = decodeHeader(header) as { x402Version?: unknown } | null;
    if (!decoded || typeof decoded !== "object")
      return refused("invalid_payload", "The payment header is not standard base64 of a JSON PaymentPayload.");
    const version = decoded.x402Version;
    if (version !== 1 && version !== 2) return refused("invalid_x402_version", `x402Version ${String(version)} is not supported (1 or 2).`);
    return { ok: true, value: { version, payload: decoded } };
  },
  fingerprint: ({ payload }) => canonicalPayload(payload),
  async verify(sale, { version, payload }, paidBefore) {
    const { resource } = sale;
    // Taken before (its answer is made again): checked against the terms it paid, not today's (a price or payout changed).
    const accepted = (payload as { accepted?: object }).accepted;
    const paymentRequirements = paidBefore && version === 2 && accepted ? accepted : requirementsFor(sale, version, payload);
    const signed = { paymentPayload: payload, paymentRequirements };
    // The time window is the settlement's to check (settle.ts), after a payment sent again got its first result.
    const check = { livemode: resource.livemode, networks: networksOf(sale), version, skipWindow: true, paidBefore, ...signed };
    const verified = await checkPayment(check);
    return verified.ok ? { ok: true, value: { verified, signed } } : refused(verified.reason, verified.message);
  },
  async settle({ resource }, { verified, signed }, record) {
    const scope = { merchantId: resource.merchantId, livemode: resource.livemode };
    // Test mode: above the payer's approval threshold, a 402 naming the request; the same payment sent again settles once approved.
    const sale = { paidResourceId: resource.id, name: resource.name, inClaim: record, awaitApproval: !resource.livemode };
    const settled = await settleVerifiedPayment(scope, verified, sale, signed);
    if (settled.kind === "refused" && "approval" in settled) {
      const approval = { approvalRequestId: settled.approval.id, expiresAt: settled.approval.expiresAt.toISOString() };
      return { ok: false, refusal: { error: settled.refusal.reason, message: settled.refusal.message, approval } };
    }
    if (settled.kind === "refused") return refused(settled.refusal.reason, settled.refusal.message); // nonce used, funds, reverted
    // Sent, not confirmed: 503 with Retry-After (a 402 would make the client sign a second payment).
    if (settled.kind === "pending") throw new SettlementPendingError(settled.paymentIntentId, settled.transaction);
    const onChain = resource.livemode ? { onChain: { transaction: settled.transaction } } : {};
    const value = { paymentIntentId: settled.paymentIntentId, payer: verified.payer, replayed: settled.replayed, ...onChain };
    return { ok: true, value };
  },
  settleFailed({ headers, resource }, { verified: payment }, err) {
    // Live: the chain or the database failed: the error contract (502 UPSTREAM_ERROR, 503 pending or outage).
    if (resource.livemode || err instanceof SettlementPendingError || err instanceof AnswerPendingError) throw err;
    // x402's answer to a failed settlement, never the /v1 error contract.
    const failure = settleFailureOf(err, headers.get("Request-Id") ?? "");
    if (failure.retryAfterSeconds !== null) headers.set("Retry-After", String(failure.retryAfterSeconds));
    const settlement = failedSettleResponse(UNEXPECTED_SETTLE_ERROR, failure.message, payment.networkName, payment.payer);
    return { error: UNEXPECTED_SETTLE_ERROR, message: failure.message, settlement };
  },
  async receipt({ resource }, { verified }, settled, signed) {
    const transaction = settled.onChain?.transaction ?? settled.paymentIntentId;
    const paid = { paymentIntentId: settled.paymentIntentId, payer: verified.payer, network: verified.network.caip2, transaction };
    const extensions = await settleReceipts(getDb(), { ...paid, resourceUrl: paidResourceUrl("x402", resource.id) }, signed);
    const receipt = encodeHeader({ ...settleResponse(verified, transaction), extensions });
    return Object.fromEntries(PAYMENT_RESPONSE_HEADERS.map((name) => [name, receipt]));
  },
  refuse: paymentRequired,
  metered: meteredSale(uptoSale({ networksOf, refuse: paymentRequired })),
  methodNotAllowed({ resource, req, headers }, allowed) {
    headers.set("Allow", allowed.join(", "));
    headers.set("Content-Type", "application/json");
    const message = `Paid resource ${resource.id} takes ${allowed.join(" and ")}, not ${req.method}.`;
    return new Response(JSON.stringify({ error: { code: "METHOD_NOT_ALLOWED", message, details: { allowed } } }), { status: 405, headers });
  },
};

function refused(error: string, message: string): { ok: false; refusal: Refusal } {
  return { ok: false, refusal: { error, message } };
}

/**
 * 402 with the terms; `settlement`: the failed settle response of a payment that was tried (PAYMENT-RESPONSE, x402
 * v2). A payment-identifier used with another payment is 409, as the extension says (nothing moved).
 */
function paymentRequired(sale: Sale, { error, message, settlement, approval }: Refusal): Response {
  const { headers } = sale;
  headers.set("Content-Type", "application/json");
  if (error === PAYMENT_IDENTIFIER_CONFLICT) {
    const body = { error: { code: "CONFLICT", message, details: { reason: error } } };
    return new Response(JSON.stringify(body), { status: 409, headers });
  }
  const terms = resourceRequirements(sale.resource, networksOf(sale));
  const extensions = { [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false), ...discoveryExtensions(sale.resource) };
  headers.set(PAYMENT_REQUIRED_HEADER, encodeHeader({ x402Version: 2, error, resource: terms.resource, accepts: terms.v2, extensions }));
  if (settlement) for (const name of PAYMENT_RESPONSE_HEADERS) headers.set(name, encodeHeader(settlement));
  if (approval) headers.set(PAYMENT_APPROVAL_REQUEST_HEADER, approval.approvalRequestId);
  return new Response(JSON.stringify({ x402Version: 1, error, ...(message ? { message } : {}), ...approval, accepts: terms.v1 }), {
    status: 402,
    headers,
  });
}

/** A listed resource declares the `bazaar` discovery extension (docs/x402.md, "Discovery"); an unlisted one declares none. */
export function discoveryExtensions(resource: PaidResource): Record<string, unknown> {
  if (!resource.listed) return {};
  return { [BAZAAR.key]: bazaarExtension(resource, new URL(paidResourceUrl("x402", resource.id)).pathname) };
}

/**
 * A listed resource's discovery in x402 v1, which has no extensions: each requirement's `outputSchema`, as
 * @x402/extensions' extractDiscoveryInfoV1 reads it (the bazaar extension's input, `discoverable`, its output example).
 */
function v1Discovery(resource: PaidResource): { outputSchema?: Record<string, unknown> } {
  if (!resource.listed) return {};
  const { info } = bazaarExtension(resource, new URL(paidResourceUrl("x402", resource.id)).pathname) as {
    info: { input: Record<string, unknown>; output?: { example?: unknown } };
  };
  const output = info.output?.example !== undefined ? { output: info.output.example } : {};
  return { outputSchema: { input: { ...info.input, discoverable: true }, ...output } };
}

export const serveX402Resource = paidResourceRoute(x402Sale);
