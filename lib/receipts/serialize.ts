import type { z } from "zod";
import type { ReceiptObject } from "./schemas";

export function serializeReceipt(paymentIntentId: string, jws: string) {
  return { object: "receipt" as const, paymentIntentId, jws } satisfies z.input<typeof ReceiptObject>;
}
