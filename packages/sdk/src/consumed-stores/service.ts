// The default consumed store (docs/sdk.md "Consumed stores"): server-authoritative, atomic across processes and machines.
// POST /v1/paywall/redemptions { paymentIntentId } -> 201 { redeemed: true } | 200 { redeemed: false, result: "already_redeemed" }.
// The request's Idempotency-Key is reused by its retries, so a redemption whose response was lost in
// transit is replayed as `redeemed: true` on retry rather than misread as already redeemed.
// A paywall whose backend is serviceBackend() of the same service and key skips consume(): it verifies
// and redeems in one request (service-link.ts).
import { ServiceClient, type ServiceClientOptions } from "../client";
import { linkToService } from "../service-link";
import { assertPaymentIntentId, type ConsumedStore } from "./types";

export interface ServiceConsumedStoreOptions extends Pick<
  ServiceClientOptions,
  "baseUrl" | "apiKey" | "timeoutMs" | "maxRetries" | "fetch"
> {
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
  if (!options || typeof options.merchantId !== "string" || !options.merchantId)
    throw new TypeError("serviceConsumedStore: merchantId is required.");
  const { merchantId, ...clientOptions } = options;
  const client = new ServiceClient({ timeoutMs: 10_000, ...clientOptions });
  const store: ServiceConsumedStore = {
    merchantId,
    async consume(paymentIntentId) {
      assertPaymentIntentId(paymentIntentId);
      const result = await client.paywall.redeem(paymentIntentId);
      return result.redeemed === true;
    },
  };
  // Paired with serviceBackend() of the same service and key, the paywall verifies and consumes in one request.
  return linkToService(store, client, clientOptions.apiKey);
}
