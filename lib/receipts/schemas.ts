import { z } from "zod";

// Responses.

/** A captured PaymentIntent's receipt: a compact JWS by a service key (docs/receipts.md). */
export const ReceiptObject = z
  .object({
    object: z.literal("receipt"),
    paymentIntentId: z.string(),
    /** The compact JWS (ES256, `kid` in its header): verify it with the keys at /.well-known/jwks.json. */
    jws: z.string(),
  })
  .meta({ id: "Receipt" });
