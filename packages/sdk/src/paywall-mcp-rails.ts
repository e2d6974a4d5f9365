// The standard MCP payment transports paywall() speaks beside `_servicePayment` (docs/sdk.md "MPP and x402 over MCP"):
//   MPP (mppx/mcp-sdk): the request's `_meta["org.paymentauth/credential"]` carries the credential; an unpaid
//     result's `_meta["org.paymentauth/payment-required"]` the challenge; a paid one's `_meta["org.paymentauth/receipt"]`
//     the receipt. It needs mppx, so it is made by mppOverMcp() of "agent-payments-sdk/mcp-mpp" (mcp-mpp-rail.ts).
//   x402 (the x402 MCP transport specification, v2): `_meta["x402/payment"]` carries the PaymentPayload; an unpaid result's
//     `_meta["x402/payment-required"]` the PaymentRequired; a paid one's `_meta["x402/payment-response"]` the
//     SettlementResponse. Settled through the service's facilitator (paywall-x402.ts), as paywallHttp's x402.
// A rail only settles, through the service; paywall() then redeems the settled PaymentIntent in its consumed store,
// as it redeems a `_servicePayment` proof: one payment runs the tool once, the same payment again is already_redeemed.
import type { ConsumedStore } from "./consumed-stores/types";
import type { FailureRefunds } from "./paywall-refund";
import type { PaywallTerms } from "./paywall-terms";
import { X402Gate, type PaywallX402Options } from "./paywall-x402";
import { keyMode, linkedKeyMode } from "./service-link";

export const MPP_CREDENTIAL_META = "org.paymentauth/credential";
export const MPP_PAYMENT_REQUIRED_META = "org.paymentauth/payment-required";
export const MPP_RECEIPT_META = "org.paymentauth/receipt";
export const X402_PAYMENT_META = "x402/payment";
export const X402_PAYMENT_REQUIRED_META = "x402/payment-required";
export const X402_PAYMENT_RESPONSE_META = "x402/payment-response";

export type McpRailOutcome =
  /** Settled (now, or before: the service answers the same payment sent again with its first settlement). */
  | { kind: "paid"; paymentIntentId: string; meta: Record<string, unknown> }
  /** Refused; `meta`: this rail's payment-required entries, saying why (a fresh challenge). */
  | { kind: "refused"; reason: string; message?: string; meta: Record<string, unknown> }
  /** Sent on chain, not confirmed yet: the same payment, sent again, gets its outcome. */
  | { kind: "pending"; message: string; details: Record<string, unknown> };

/** One standard transport: where its payment travels, its terms for an unpaid call, and its settlement. */
export interface McpPaymentRail {
  readonly name: string;
  /** The key of the request's `_meta` that carries this rail's payment. */
  readonly credentialKey: string;
  /** The key of an unpaid result's `_meta` that carries this rail's terms. */
  readonly requiredKey: string;
  /** The `_meta` entries of an unpaid call's result (throws when the service cannot be reached). */
  paymentRequired(): Promise<Record<string, unknown>>;
  /** Settles the payment through the service; never runs the tool; throws when the service cannot be reached. */
  settle(payment: unknown, requestMeta: Record<string, unknown>): Promise<McpRailOutcome>;
  /** Refunds this rail's payment of a call that failed. */
  readonly refunds: FailureRefunds;
  /** The mode of the key it settles with ("test" / "live"), when known. */
  readonly mode: "test" | "live" | null;
}

/** Makes a rail for one paywall's terms; `name` is the wrapper's, for messages. */
export type McpRailFactory = (terms: PaywallTerms, name: string) => McpPaymentRail;

/** The MCP resource URL x402 names a tool by when none is configured (the x402 MCP transport's default form). */
export function toolResourceUrl(sku: string): string {
  return `mcp://tool/${encodeURIComponent(sku)}`;
}

/**
 * paywall() was given x402's usage price (`maxAmount` / `unitAmount`): `upto` is sold over x402 HTTP only, by
 * paywallHttp(), whose handler reports the units it used in a response header before the SDK settles them; the MCP
 * transports have no such report, so over MCP x402 is `exact` (the fixed `price`). Thrown when paywall() is
 * configured, never at a call. A TypeError (a configuration mistake, as every other bad option), with its own name
 * and `code` to tell it apart.
 */
export class UptoOverMcpError extends TypeError {
  readonly code = "upto_over_mcp";
  constructor(readonly wrapper: string) {
    super(
      `${wrapper}: x402's upto (x402.maxAmount, x402.unitAmount) is sold only over x402 HTTP, with paywallHttp(); over MCP, x402 is exact ` +
        "at the paywall's fixed price. Remove maxAmount and unitAmount from this paywall's x402 options, or serve the usage-priced call over HTTP with paywallHttp().",
    );
    this.name = "UptoOverMcpError";
  }
}

/** x402 over MCP, through the service's facilitator with the merchant's key. */
export function x402McpRail(options: PaywallX402Options, terms: PaywallTerms, name: string): McpPaymentRail {
  // Before the gate checks the usage price itself: over MCP there is none to check, whatever its values.
  if (options && (options.maxAmount !== undefined || options.unitAmount !== undefined)) throw new UptoOverMcpError(name);
  const gate = new X402Gate(options, terms, name);
  const resourceUrl = options.resourceUrl ?? toolResourceUrl(terms.sku);
  const required = async (error?: string) => ({ [X402_PAYMENT_REQUIRED_META]: await gate.paymentRequiredFor(resourceUrl, error) });
  return {
    name: "x402",
    credentialKey: X402_PAYMENT_META,
    requiredKey: X402_PAYMENT_REQUIRED_META,
    paymentRequired: () => required(),
    async settle(payment) {
      const outcome = await gate.settlePayload(payment, resourceUrl);
      if (outcome.kind === "paid")
        return { kind: "paid", paymentIntentId: outcome.paymentIntentId, meta: { [X402_PAYMENT_RESPONSE_META]: outcome.settlement } };
      if (outcome.kind === "pending") {
        const message = `The x402 payment is being settled on chain (transaction ${outcome.transaction || "being sent"}); send the same payment again shortly.`;
        return { kind: "pending", message, details: { reason: "settlement_pending", transaction: outcome.transaction } };
      }
      const reason = outcome.kind === "refused" ? outcome.reason : "invalid_payload";
      const message = outcome.kind === "refused" ? outcome.message : undefined;
      return { kind: "refused", reason, ...(message ? { message } : {}), meta: await required(reason) };
    },
    refunds: gate.refunds,
    mode: keyMode(options.apiKey),
  };
}

/** The rails of paywall()'s options (MPP, then x402), each checked against the consumed store's mode. */
export function mcpRails(
  name: string,
  options: { mpp?: McpRailFactory; x402?: PaywallX402Options },
  terms: PaywallTerms,
  consumed: ConsumedStore,
): McpPaymentRail[] {
  if (options.mpp !== undefined && typeof options.mpp !== "function")
    throw new TypeError(`${name}: mpp must be made by mppOverMcp() of "agent-payments-sdk/mcp-mpp".`);
  const rails = [options.mpp?.(terms, name), options.x402 ? x402McpRail(options.x402, terms, name) : undefined].filter(
    (rail): rail is McpPaymentRail => rail !== undefined,
  );
  // A settled payment is redeemed in the store: a service store of the other mode would refuse every one of them.
  const storeMode = linkedKeyMode(consumed);
  for (const rail of rails)
    if (storeMode && rail.mode && storeMode !== rail.mode)
      throw new TypeError(`${name}: the ${rail.name} key and the consumed store's key must be of the same mode (both test or both live).`);
  return rails;
}

/** The first rail whose payment the request's `_meta` carries, with that payment. */
export function railPayment(
  rails: McpPaymentRail[],
  extra: unknown,
): { rail: McpPaymentRail; payment: unknown; requestMeta: Record<string, unknown> } | null {
  const requestMeta = isRecord(extra) && isRecord(extra._meta) ? extra._meta : null;
  if (!requestMeta) return null;
  for (const rail of rails) {
    const payment = requestMeta[rail.credentialKey];
    if (payment !== undefined && payment !== null) return { rail, payment, requestMeta };
  }
  return null;
}

/**
 * The `_meta` of an unpaid (or refused) call: every rail's payment-required entries, `refused`'s own for the rail
 * that refused. A rail whose terms cannot be had now (the service unreachable) is left out; the gate still stands.
 */
export async function paymentRequiredMeta(
  rails: McpPaymentRail[],
  refused?: { rail: McpPaymentRail; meta: Record<string, unknown> },
): Promise<Record<string, unknown> | undefined> {
  if (rails.length === 0) return undefined;
  const entries = await Promise.all(
    rails.map((rail) => (rail === refused?.rail ? refused.meta : rail.paymentRequired().catch(() => ({})))),
  );
  return Object.assign({}, ...entries) as Record<string, unknown>;
}

/** A sentence for agents: the standard transports this call also accepts. */
export function railsHint(rails: McpPaymentRail[]): string | undefined {
  if (rails.length === 0) return undefined;
  const keys = rails.map((r) => `${r.name} (terms in _meta["${r.requiredKey}"], payment in the request's _meta["${r.credentialKey}"])`);
  return `Also payable over MCP with ${keys.join(" or ")}.`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
