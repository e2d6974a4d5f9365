// The operations of /ap2/{merchantId}/checkouts/{checkoutId}/pay (lib/openapi/operation.ts): AP2 v0.2 payment.
import { z } from "zod";
import { PayCheckoutBody } from "@/lib/ap2/v02/pay";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "payAp2Checkout",
  summary: "AP2 v0.2: pay a checkout with closed Checkout and Payment Mandates (SD-JWT chains); answers signed receipts",
  tag: "AP2",
  auth: "secret",
  permission: ["ap2", "write"],
  body: PayCheckoutBody,
  idempotent: false,
  responses: {
    200: z
      .object({
        object: z.literal("ap2_payment"),
        payment_intent_id: z.string(),
        checkout_receipt: z.string(),
        payment_receipt: z.string(),
      })
      .loose()
      .meta({ id: "Ap2Payment" }),
  },
});
