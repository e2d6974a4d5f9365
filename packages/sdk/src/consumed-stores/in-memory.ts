// In-process consumed store. VALID FOR ONE PROCESS ONLY (tests, local demos): a second process, a
// restart or a serverless cold start has its own empty set, so one payment could unlock several calls.
// Use serviceConsumedStore (default), redisConsumedStore or postgresConsumedStore in production.
import { assertPaymentIntentId, type ConsumedStore } from "./types";

export interface InMemoryConsumedStore extends ConsumedStore {
  /** How many ids have been consumed (for tests). */
  readonly size: number;
}

export function inMemoryConsumedStore(): InMemoryConsumedStore {
  const consumed = new Set<string>();
  return {
    async consume(paymentIntentId) {
      assertPaymentIntentId(paymentIntentId);
      // JavaScript runs this check-and-set without interleaving, so it is atomic within the process.
      if (consumed.has(paymentIntentId)) return false;
      consumed.add(paymentIntentId);
      return true;
    },
    get size() {
      return consumed.size;
    },
  };
}
