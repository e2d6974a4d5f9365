// x402 beside the service gate in paywallHttp() (docs/x402.md "SDK"): one protected endpoint serves
// service-SDK clients and stock x402 clients alike. The 402 carries PAYMENT-REQUIRED (standard base64 of
// the x402 v2 PaymentRequired: scheme exact, the merchant's payTo from GET /x402/supported, the price in
// atomic USDC = cents x 10,000); a retry with PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1) is verified and settled
// through the service's facilitator (POST /x402/verify, /x402/settle) with the merchant's key before the
// handler runs; the answer carries PAYMENT-RESPONSE. The authorization's nonce makes it single-use: the facilitator
// settles a payload once, and answers the same payload sent again to this merchant with the first settlement (same
// `transaction`, `extensions.replayed: true`). So that a payment unlocks one call however often it is sent,
// paywallHttp redeems the settled PaymentIntent in the paywall's consumed store before running the handler (SPEC 3.3):
// a replay of a payment that already ran is already_redeemed; one whose first answer never ran the handler (a live
// settlement still pending then, a request cut off before its handler) runs it once. A handler that fails after
// the payment (5xx) has it refunded through the same service and key (paywall-refund.ts).
// Usage-priced (`maxAmount`, `unitAmount`): the 402 asks x402's `upto` for the maximum, the payment is verified before
// the handler runs and settled after it, at the units it reports (paywall-upto.ts).
import { ServiceClient } from "./client";
import { failureRefunds, type FailureRefunds } from "./paywall-refund";
import type { FetchLike } from "./transport";

export interface PaywallX402Options {
  /** The service's address (the facilitator is `${baseUrl}/x402`). */
  baseUrl: string;
  /** The MERCHANT's key (the facilitator settles into its ledger). */
  apiKey: string;
  /** The URL payers see as the x402 resource (default: the request's URL). */
  resourceUrl?: string;
  description?: string;
  fetch?: FetchLike;
  /**
   * paywallHttp() only (paywall(), over MCP, throws UptoOverMcpError when given either): usage-priced, x402's `upto`
   * (docs/sdk.md "Usage-priced x402 (upto)"). The payer authorizes
   * `maxAmount` (cents); the handler reports the units it used in the `X-Usage-Units` response header, and
   * units x `unitAmount` (cents) is settled. Both or neither.
   */
  maxAmount?: number;
  unitAmount?: number;
}

/** The usage price of an `upto` paywall (cents). */
export interface UptoTerms {
  maxAmount: number;
  unitAmount: number;
}

/** An upto payment checked by the facilitator against the maximum, before the handler runs. */
export type UptoVerification =
  | { kind: "refused"; reason: string; message?: string }
  /** This very payment was settled before (its PaymentIntent): its call ran already. */
  | { kind: "replayed"; paymentIntentId: string }
  | { kind: "verified"; payload: object; requirements: Record<string, unknown> };

export type X402Outcome =
  | { kind: "none" }
  /** Settled now, or before (the facilitator answers the same payment sent again with its first settlement); upto's zero: paymentIntentId "". */
  | { kind: "paid"; paymentIntentId: string; receipt: string; settlement: X402Settlement }
  | { kind: "refused"; reason: string; message?: string }
  /** Live: the payment was sent on chain and is not confirmed yet. */
  | { kind: "pending"; transaction: string };

/** The x402 SettlementResponse of a paid call (PAYMENT-RESPONSE decoded; MCP's `_meta["x402/payment-response"]`). */
export interface X402Settlement {
  success: true;
  transaction: unknown;
  network: unknown;
  payer: unknown;
  /** upto: what was settled (atomic units). */
  amount?: unknown;
}

interface Kind {
  x402Version: number;
  scheme: string;
  network: string;
  extra?: { payTo?: string; asset?: string; name?: string; version?: string; facilitatorAddress?: string };
}

const ATOMIC_PER_CENT = 10_000n;
const MAX_HEADER_CHARS = 16 * 1024;

export function encodeBase64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64");
}

function decodeBase64Json(text: string): unknown {
  const t = text.trim();
  if (!t || t.length > MAX_HEADER_CHARS || !/^[A-Za-z0-9+/]*={0,2}$/.test(t)) return null;
  try {
    return JSON.parse(Buffer.from(t, "base64").toString("utf8"));
  } catch {
    return null;
  }
}

export class X402Gate {
  private kinds?: Promise<Kind[]>;
  private readonly fetch: FetchLike;
  private readonly base: string;
  /** Refunds an x402 PaymentIntent of this merchant (a paid call that failed). */
  readonly refunds: FailureRefunds;
  /** Usage-priced (`upto`), or null: a fixed price (`exact`). */
  readonly upto: UptoTerms | null;

  /** `name`: the wrapper (paywallHttp, paywall), for the messages of a bad option. */
  constructor(
    private readonly options: PaywallX402Options,
    private readonly terms: { price: number; currency: string; sku: string },
    name = "paywallHttp",
  ) {
    if (!options || typeof options.baseUrl !== "string" || typeof options.apiKey !== "string")
      throw new TypeError(`${name}: x402 needs { baseUrl, apiKey }.`);
    if (terms.currency.toUpperCase() !== "USD") throw new TypeError(`${name}: x402 pays in USDC, so x402 needs a USD price.`);
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.base = options.baseUrl.replace(/\/+$/, "");
    const client = new ServiceClient({ timeoutMs: 10_000, baseUrl: options.baseUrl, apiKey: options.apiKey, fetch: options.fetch });
    this.refunds = failureRefunds(client, name);
    this.upto = uptoTermsOf(options, name);
  }

  private headers() {
    return { Authorization: `Bearer ${this.options.apiKey}`, "Content-Type": "application/json" };
  }

  /** The facilitator's kinds for the key's mode (asked once; a failure is asked again next time). */
  private supported(): Promise<Kind[]> {
    this.kinds ??= this.fetch(`${this.base}/x402/supported`, { method: "GET", headers: this.headers() }).then(async (res) => {
      if (!res.ok) throw new Error(`GET /x402/supported answered ${res.status}`);
      return ((await res.json()) as { kinds: Kind[] }).kinds;
    });
    return this.kinds.catch((err) => {
      this.kinds = undefined;
      throw err;
    });
  }

  private async requirements(resourceUrl: string) {
    const kinds = await this.supported();
    if (this.upto) return this.uptoRequirements(kinds, resourceUrl);
    const v2 = kinds.find((k) => k.x402Version === 2 && k.scheme === "exact");
    const v1 = kinds.find((k) => k.x402Version === 1 && k.scheme === "exact");
    if (!v2?.extra?.payTo || !v2.extra.asset) throw new Error("The facilitator offers no exact scheme.");
    const amount = (BigInt(this.terms.price) * ATOMIC_PER_CENT).toString();
    const description = this.options.description ?? this.terms.sku;
    const extra = { name: v2.extra.name ?? "USDC", version: v2.extra.version ?? "2" };
    const accepted = {
      scheme: "exact",
      network: v2.network,
      amount,
      asset: v2.extra.asset,
      payTo: v2.extra.payTo,
      maxTimeoutSeconds: 300,
      extra,
    };
    const legacy = v1
      ? {
          scheme: "exact",
          network: v1.network,
          maxAmountRequired: amount,
          resource: resourceUrl,
          description,
          mimeType: "application/json",
          payTo: v2.extra.payTo,
          maxTimeoutSeconds: 300,
          asset: v2.extra.asset,
          extra,
        }
      : null;
    return { resource: { url: resourceUrl, description, mimeType: "application/json" }, accepted, legacy };
  }

  /** upto: the v2 requirements of the maximum, bound to the facilitator the supported kind names (no v1: upto is v2). */
  private uptoRequirements(kinds: Kind[], resourceUrl: string) {
    const kind = kinds.find((k) => k.x402Version === 2 && k.scheme === "upto");
    if (!kind?.extra?.payTo || !kind.extra.asset || !kind.extra.facilitatorAddress)
      throw new Error("The facilitator offers no upto scheme.");
    const { payTo, asset, name, version, facilitatorAddress } = kind.extra;
    const accepted = {
      scheme: "upto",
      network: kind.network,
      amount: (BigInt(this.upto!.maxAmount) * ATOMIC_PER_CENT).toString(),
      asset,
      payTo,
      maxTimeoutSeconds: 300,
      extra: { name: name ?? "USDC", version: version ?? "2", facilitatorAddress },
    };
    const description = this.options.description ?? this.terms.sku;
    return { resource: { url: resourceUrl, description, mimeType: "application/json" }, accepted, legacy: null };
  }

  private resourceUrl(req: Request): string {
    return this.options.resourceUrl ?? req.url;
  }

  /** The PAYMENT-REQUIRED header value (v2 PaymentRequired), with `error` when a payment was refused. */
  async paymentRequired(req: Request, error = "Payment required"): Promise<string> {
    return encodeBase64Json(await this.paymentRequiredFor(this.resourceUrl(req), error));
  }

  /** The v2 PaymentRequired object for `resourceUrl` (MCP carries it as it is, in `_meta`). */
  async paymentRequiredFor(resourceUrl: string, error = "Payment required"): Promise<Record<string, unknown>> {
    const r = await this.requirements(resourceUrl);
    return { x402Version: 2, error, resource: r.resource, accepts: [r.accepted] };
  }

  /** Whether the request carries an x402 payment. */
  static carriesPayment(req: Request): boolean {
    return req.headers.has("payment-signature") || req.headers.has("x-payment");
  }

  /** Verifies and settles the request's x402 payment through the facilitator; throws when the service cannot be reached. */
  async settle(req: Request): Promise<X402Outcome> {
    const header = req.headers.get("payment-signature") ?? req.headers.get("x-payment");
    if (header === null) return { kind: "none" };
    const payload = decodeBase64Json(header);
    if (!payload || typeof payload !== "object")
      return { kind: "refused", reason: "invalid_payload", message: "The payment header is not standard base64 of JSON." };
    return this.settlePayload(payload, this.resourceUrl(req));
  }

  /**
   * Verifies and settles an x402 PaymentPayload (already decoded: MCP's `_meta["x402/payment"]`) against this
   * paywall's requirements for `resourceUrl`; throws when the service cannot be reached.
   */
  async settlePayload(payload: unknown, resourceUrl: string): Promise<X402Outcome> {
    if (!payload || typeof payload !== "object" || Array.isArray(payload))
      return { kind: "refused", reason: "invalid_payload", message: "The x402 payment is not a PaymentPayload object." };
    const version = (payload as { x402Version?: unknown }).x402Version;
    const r = await this.requirements(resourceUrl);
    const requirements = version === 1 ? r.legacy : version === 2 ? r.accepted : null;
    if (!requirements) return { kind: "refused", reason: "invalid_x402_version" };
    const body = JSON.stringify({ x402Version: version, paymentPayload: payload, paymentRequirements: requirements });
    const verify = await this.call("/x402/verify", body);
    if (!verify.isValid)
      return {
        kind: "refused",
        reason: String(verify.invalidReason ?? "invalid_payload"),
        message: verify.invalidMessage as string | undefined,
      };
    return this.outcomeOf(await this.call("/x402/settle", body));
  }

  /**
   * upto, before the handler runs: the request's payment verified against the maximum. A payment the facilitator
   * settled before for this merchant says so (`extensions.replayed`): its call ran already.
   */
  async verifyUpto(req: Request): Promise<UptoVerification> {
    const header = req.headers.get("payment-signature") ?? req.headers.get("x-payment");
    const payload = header === null ? null : decodeBase64Json(header);
    if (!payload || typeof payload !== "object" || Array.isArray(payload))
      return {
        kind: "refused",
        reason: "invalid_payload",
        message: "The payment header is not standard base64 of an x402 PaymentPayload.",
      };
    if ((payload as { x402Version?: unknown }).x402Version !== 2)
      return { kind: "refused", reason: "invalid_x402_version", message: "Scheme 'upto' is paid with x402 v2 (PAYMENT-SIGNATURE)." };
    const { accepted } = await this.requirements(this.resourceUrl(req));
    const verify = await this.call(
      "/x402/verify",
      JSON.stringify({ x402Version: 2, paymentPayload: payload, paymentRequirements: accepted }),
    );
    if (!verify.isValid)
      return {
        kind: "refused",
        reason: String(verify.invalidReason ?? "invalid_payload"),
        message: verify.invalidMessage as string | undefined,
      };
    const extensions = (verify.extensions ?? {}) as { replayed?: unknown; paymentIntentId?: unknown };
    if (extensions.replayed === true && typeof extensions.paymentIntentId === "string")
      return { kind: "replayed", paymentIntentId: extensions.paymentIntentId };
    return { kind: "verified", payload, requirements: accepted };
  }

  /**
   * upto, after the handler ran: `cents` (its units x unitAmount, at most the maximum) settled through the facilitator.
   * Zero: paid with no PaymentIntent (`paymentIntentId` ""), the authorization spent.
   */
  async settleUpto(verified: Extract<UptoVerification, { kind: "verified" }>, cents: number): Promise<X402Outcome> {
    const requirements = { ...verified.requirements, amount: (BigInt(cents) * ATOMIC_PER_CENT).toString() };
    const body = JSON.stringify({ x402Version: 2, paymentPayload: verified.payload, paymentRequirements: requirements });
    return this.outcomeOf(await this.call("/x402/settle", body));
  }

  private outcomeOf(settled: Record<string, unknown>): X402Outcome {
    // Live: sent on chain, not confirmed yet; the same payment sent again later gets its outcome (never a 402).
    if (!settled.success && settled.errorReason === "settlement_pending")
      return { kind: "pending", transaction: String(settled.transaction ?? "") };
    if (!settled.success)
      return {
        kind: "refused",
        reason: String(settled.errorReason ?? "unexpected_settle_error"),
        message: settled.errorMessage as string | undefined,
      };
    const settlement: X402Settlement = {
      success: true,
      transaction: settled.transaction,
      network: settled.network,
      payer: settled.payer,
      ...(settled.amount !== undefined ? { amount: settled.amount } : {}),
    };
    // The PaymentIntent: extensions.paymentIntentId (in live mode `transaction` is the chain's transaction).
    const extensions = (settled.extensions ?? {}) as { paymentIntentId?: unknown };
    const paymentIntentId = String(extensions.paymentIntentId ?? settled.transaction ?? "");
    return { kind: "paid", paymentIntentId, receipt: encodeBase64Json(settlement), settlement };
  }

  private async call(path: string, body: string): Promise<Record<string, unknown>> {
    const res = await this.fetch(`${this.base}${path}`, { method: "POST", headers: this.headers(), body });
    const answer = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    // A refusal is an answer (200, or 400 for a malformed payment); anything else is the service failing.
    if (answer && (res.ok || res.status === 400) && ("isValid" in answer || "success" in answer)) return answer;
    throw new Error(`${path} answered ${res.status}`);
  }
}

const isCents = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value > 0;

/** The upto terms of the options (both maxAmount and unitAmount, whole positive cents, unit <= maximum), or null. */
function uptoTermsOf(options: PaywallX402Options, name: string): UptoTerms | null {
  const { maxAmount, unitAmount } = options;
  if (maxAmount === undefined && unitAmount === undefined) return null;
  if (!isCents(maxAmount) || !isCents(unitAmount) || unitAmount > maxAmount)
    throw new TypeError(`${name}: x402's upto needs maxAmount and unitAmount, positive whole cents, unitAmount <= maxAmount.`);
  return { maxAmount, unitAmount };
}
