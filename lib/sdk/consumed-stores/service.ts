// The default consumed store (SPEC.md 2.7): server-authoritative, atomic across processes and machines.
// POST /v1/paywall/redemptions { paymentIntentId } -> 201 { redeemed: true } | 200 { redeemed: false, result: "already_redeemed" }.
// The request's Idempotency-Key is reused by its retries, so a redemption whose response was lost in
// transit is replayed as `redeemed: true` on retry rather than misread as already redeemed.
import { ServiceClient, type ServiceClientOptions } from "../client";
import { assertPaymentIntentId, type ConsumedStore } from "./types";

export interface ServiceConsumedStoreOptions extends Pick<ServiceClientOptions, "baseUrl" | "apiKey" | "timeoutMs" | "maxRetries" | "fetch"> {
  /**
   * The merchant whose redemptions these are. The service scopes redemptions by the API key, which must
   * be this merchant's key; the id is kept on the store (`store.merchantId`) for checks and logs.
   */
  merchantId: string;
}

export interface ServiceConsumedStore extends ConsumedStore {
  readonly merchantId: string;
}

export function serviceConsumedStore(options: ServiceConsumedStoreOptions): ServiceConsumedStore {
  if (!options || typeof options.merchantId !== "string" || !options.merchantId) throw new TypeError("serviceConsumedStore: merchantId is required.");
  const { merchantId, ...clientOptions } = options;
  const client = new ServiceClient({ timeoutMs: 10_000, ...clientOptions });
  return {
    merchantId,
    async consume(paymentIntentId) {
      assertPaymentIntentId(paymentIntentId);
      const result = await client.paywall.redeem(paymentIntentId);
      return result.redeemed === true;
    },
  };
}
