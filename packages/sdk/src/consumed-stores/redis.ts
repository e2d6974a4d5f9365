// Consumed store on a shared Redis: `SET key 1 NX EX ttl` succeeds for exactly one caller, across processes.
// Takes any ioredis-compatible client (`set(key, value, "EX", ttl, "NX")` resolving "OK" or null), so the
// SDK does not depend on ioredis itself.
import { assertPaymentIntentId, type ConsumedStore } from "./types";

export interface RedisLike {
  set(key: string, value: string, expiryMode: "EX", seconds: number, mode: "NX"): Promise<string | null | undefined>;
}

export interface RedisConsumedStoreOptions {
  /** Key prefix. Default `service:paywall:consumed:`. */
  prefix?: string;
  /** How long a redemption is remembered. Default 90 days; keep it longer than a PaymentIntent can be presented. */
  ttlSeconds?: number;
}

export function redisConsumedStore(redis: RedisLike, options: RedisConsumedStoreOptions = {}): ConsumedStore {
  if (!redis || typeof redis.set !== "function") throw new TypeError("redisConsumedStore: an ioredis-compatible client is required.");
  const prefix = options.prefix ?? "service:paywall:consumed:";
  const ttlSeconds = options.ttlSeconds ?? 90 * 24 * 3600;
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1)
    throw new TypeError("redisConsumedStore: ttlSeconds must be a positive integer.");
  return {
    async consume(paymentIntentId) {
      assertPaymentIntentId(paymentIntentId);
      const reply = await redis.set(`${prefix}${paymentIntentId}`, String(Date.now()), "EX", ttlSeconds, "NX");
      return reply === "OK";
    },
  };
}
