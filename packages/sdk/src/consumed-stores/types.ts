// docs/sdk.md "Consumed stores": `consume(paymentIntentId)` is atomic and resolves true only for the first redemption.
export interface ConsumedStore {
  consume(paymentIntentId: string): Promise<boolean>;
}

export function assertPaymentIntentId(paymentIntentId: unknown): asserts paymentIntentId is string {
  if (typeof paymentIntentId !== "string" || paymentIntentId.length === 0 || paymentIntentId.length > 255) {
    throw new TypeError("consume(paymentIntentId): a non-empty string of at most 255 characters is required.");
  }
}
