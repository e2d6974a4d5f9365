// The operations of /ap2/{merchantId}/checkouts (lib/openapi/operation.ts): AP2 v0.2's merchant-signed checkout.
import { z } from "zod";
import { CreateCheckoutBody } from "@/lib/ap2/v02/checkout";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "createAp2Checkout",
  summary: "AP2 v0.2: the merchant prices the items and signs the checkout (checkout_jwt, checkout_hash, nonce)",
  tag: "AP2",
  auth: "secret",
  permission: ["ap2", "write"],
  body: CreateCheckoutBody,
  status: 201,
  idempotent: false,
  responses: {
    201: z
      .object({ id: z.string(), object: z.literal("ap2_checkout"), checkout_jwt: z.string(), nonce: z.string() })
      .loose()
      .meta({ id: "Ap2Checkout" }),
  },
});
