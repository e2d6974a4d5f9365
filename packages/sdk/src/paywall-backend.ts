// The paywall's verifier (docs/sdk.md "Paywall (single-use), for MCP tools" "backend"): checks that a PaymentIntent paid exactly these terms.
// serviceBackend() is the default, calling the service's POST /v1/paywall/verify over HTTP.
import { ServiceClient, type ServiceClientOptions } from "./client";
import { linkToService } from "./service-link";
import type { PaywallReasonCode, PaywallVerifyParams } from "./types";

export type VerifyOutcome = { valid: true } | { valid: false; reasonCode: PaywallReasonCode };

export interface PaywallBackend {
  /** Where a caller pays the gate's terms (put in every gate). */
  readonly payEndpoint: string;
  verify(params: PaywallVerifyParams): Promise<VerifyOutcome>;
}

export type ServiceBackendOptions = Pick<ServiceClientOptions, "baseUrl" | "apiKey" | "timeoutMs" | "maxRetries" | "fetch">;

/** Verifies through the service with the MERCHANT's key; payEndpoint = `${baseUrl}/v1/paywall/pay`. */
export function serviceBackend(options: ServiceBackendOptions): PaywallBackend {
  const client = new ServiceClient({ timeoutMs: 10_000, ...options });
  const backend: PaywallBackend = {
    payEndpoint: `${client.baseUrl}/v1/paywall/pay`,
    async verify(params) {
      const result = await client.paywall.verify(params);
      return result.valid ? { valid: true } : { valid: false, reasonCode: result.reasonCode };
    },
  };
  // Paired with serviceConsumedStore() of the same service and key, the paywall verifies and consumes in one request.
  return linkToService(backend, client, options.apiKey);
}
