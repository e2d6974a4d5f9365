// docs/sdk.md "Paywall (single-use), for MCP tools": the single-use paywall's options, shared by paywall() (MCP) and paywallHttp() (plain HTTP).
import { ServiceClient } from "./client";
import type { ConsumedStore } from "./consumed-stores/types";
import type { PaywallBackend, ServiceBackendOptions } from "./paywall-backend";
import type { McpRailFactory } from "./paywall-mcp-rails";
import { failureRefunds, type FailureRefunds } from "./paywall-refund";
import { validateTerms, type PaywallTerms } from "./paywall-terms";
import type { PaywallX402Options } from "./paywall-x402";
import { linkedClient } from "./service-link";

export interface PaywallOptions {
  /** Verifier of the presented payment; serviceBackend({ baseUrl, apiKey }) calls the service's /verify. */
  backend: PaywallBackend;
  /** The charge lands here. */
  merchantId: string;
  /** Integer, minor units; authoritative. */
  price: number;
  /** ISO currency code; authoritative. */
  currency: string;
  /** Binds the payment to this specific tool. */
  sku: string;
  /** Single-use store; REQUIRED in every environment. serviceConsumedStore(...) is the default choice. */
  consumed: ConsumedStore;
  /** `prd_...` reference shown in the gate (display and traceability only). */
  productRef?: string;
  /**
   * Also speak x402 (docs/x402.md), settled through the service's facilitator. paywallHttp(): the 402 carries
   * PAYMENT-REQUIRED beside the gate, and a retry with PAYMENT-SIGNATURE / X-PAYMENT is paid. paywall() (MCP): the
   * gate's `_meta["x402/payment-required"]`, paid by `_meta["x402/payment"]` (the x402 MCP transport). Needs a USD
   * price. `{ baseUrl, apiKey }` are the service's address and the MERCHANT's key.
   */
  x402?: PaywallX402Options;
  /**
   * paywall() (MCP) only: also speak MPP over MCP (mppx/mcp-sdk): `mppOverMcp({ baseUrl, apiKey, secretKey })` from
   * "agent-payments-sdk/mcp-mpp" (needs mppx). The gate's `_meta["org.paymentauth/payment-required"]` carries the
   * challenge; a credential in the request's `_meta["org.paymentauth/credential"]` is settled through POST /mpp/verify.
   */
  mpp?: McpRailFactory;
  /**
   * Where the payment of a call that failed (the handler threw, or paywallHttp's handler answered 5xx) is
   * refunded: the service and the MERCHANT's key. Default: those of `backend` (serviceBackend()) or, failing that,
   * of `consumed` (serviceConsumedStore()). With neither, a failed call's payment block says `refund_failed`
   * (`refund_not_configured`). An x402 payment is refunded through `x402`'s service and key.
   */
  refund?: ServiceBackendOptions;
}

export interface ResolvedPaywall {
  backend: PaywallBackend;
  consumed: ConsumedStore;
  terms: PaywallTerms;
  /** The payment of a call that failed: refunded (docs/sdk.md "When the paid call fails"). */
  refunds: FailureRefunds;
}

/** Validates the options at construction ("startup fails if consumed is absent, in every environment"). */
export function resolvePaywallOptions(name: string, options: PaywallOptions): ResolvedPaywall {
  if (!options || typeof options !== "object") throw new TypeError(`${name}: options are required.`);
  if (!options.consumed || typeof options.consumed.consume !== "function") {
    throw new TypeError(
      `${name}: the "consumed" store is required in every environment (one payment must unlock exactly one call). ` +
        "Use serviceConsumedStore({ baseUrl, apiKey, merchantId }), redisConsumedStore, postgresConsumedStore, or inMemoryConsumedStore() for a single process.",
    );
  }
  if (!options.backend || typeof options.backend.verify !== "function" || typeof options.backend.payEndpoint !== "string") {
    throw new TypeError(`${name}: "backend" is required: serviceBackend({ baseUrl, apiKey }) or an object with verify() and payEndpoint.`);
  }
  const terms = validateTerms(name, {
    merchantId: options.merchantId,
    price: options.price,
    currency: options.currency,
    sku: options.sku,
    productRef: options.productRef,
  });
  const refundClient = options.refund
    ? new ServiceClient({ timeoutMs: 10_000, ...options.refund })
    : linkedClient(options.backend, options.consumed);
  return { backend: options.backend, consumed: options.consumed, terms, refunds: failureRefunds(refundClient, name) };
}
