// docs/sdk.md "Paywall (single-use), for MCP tools": the single-use paywall's options, shared by paywall() (MCP) and paywallHttp() (plain HTTP).
import type { ConsumedStore } from "./consumed-stores/types";
import type { PaywallBackend } from "./paywall-backend";
import { validateTerms, type PaywallTerms } from "./paywall-terms";
import type { PaywallX402Options } from "./paywall-x402";

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
   * paywallHttp() only: also speak x402 (docs/x402.md): the 402 carries PAYMENT-REQUIRED beside the gate, and a
   * retry with PAYMENT-SIGNATURE / X-PAYMENT is verified and settled through the service's facilitator.
   * Needs a USD price. `{ baseUrl, apiKey }` are the service's address and the MERCHANT's key.
   */
  x402?: PaywallX402Options;
}

export interface ResolvedPaywall {
  backend: PaywallBackend;
  consumed: ConsumedStore;
  terms: PaywallTerms;
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
  return { backend: options.backend, consumed: options.consumed, terms };
}
