// Which service and key a serviceBackend() or serviceConsumedStore() talks to. When a paywall's backend and
// consumed store are the same service under the same key, verifying and consuming a proof is ONE request
// (POST /v1/paywall/redemptions with the terms) instead of two. Kept in a WeakMap, off the objects, so the
// key is never a visible property; any other backend or store (or a wrapped one) is simply not linked.
import type { ServiceClient } from "./client";
import type { PaywallVerifiedRedemptionResult, PaywallVerifyParams } from "./types";

interface ServiceLink {
  client: ServiceClient;
  apiKey: string;
}

const links = new WeakMap<object, ServiceLink>();

export function linkToService<T extends object>(target: T, client: ServiceClient, apiKey: string): T {
  links.set(target, { client, apiKey });
  return target;
}

/** The client of the first of `targets` made by serviceBackend() or serviceConsumedStore(), else null. */
export function linkedClient(...targets: object[]): ServiceClient | null {
  for (const target of targets) {
    const link = links.get(target);
    if (link) return link.client;
  }
  return null;
}

/** "test" or "live": the mode of the key a serviceBackend() or serviceConsumedStore() uses; null for any other object. */
export function linkedKeyMode(target: object): "test" | "live" | null {
  const key = links.get(target)?.apiKey;
  return key ? keyMode(key) : null;
}

export function keyMode(apiKey: string): "test" | "live" | null {
  return /^(sk|rk)_live_/.test(apiKey) ? "live" : /^(sk|rk)_test_/.test(apiKey) ? "test" : null;
}

export type VerifyAndRedeem = (params: PaywallVerifyParams) => Promise<PaywallVerifiedRedemptionResult>;

/** The one-request redemption when `backend` and `consumed` are the same service and key, else null. */
export function oneRequestRedemption(backend: object, consumed: object): VerifyAndRedeem | null {
  const verifier = links.get(backend);
  const store = links.get(consumed);
  if (!verifier || !store || verifier.client.baseUrl !== store.client.baseUrl || verifier.apiKey !== store.apiKey) return null;
  // The store's client: the redemption is its request (its timeout and retries, one Idempotency-Key for all).
  return (params) => store.client.paywall.verifyAndRedeem(params);
}
