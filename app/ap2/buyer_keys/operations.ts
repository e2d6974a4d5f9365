// The operations of /ap2/buyer_keys (lib/openapi/operation.ts): a payer's AP2 v0.2 user key.
import { z } from "zod";
import { RegisterBuyerKeyBody } from "@/lib/ap2/v02/buyer-keys";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "registerAp2BuyerKey",
  summary: "AP2 v0.2: register the public key that signs this payer's mandates (kid = RFC 7638 thumbprint)",
  tag: "AP2",
  auth: "secret",
  permission: ["ap2", "write"],
  body: RegisterBuyerKeyBody,
  status: 201,
  responses: {
    201: z
      .object({ id: z.string(), object: z.literal("ap2_buyer_key"), kid: z.string() })
      .loose()
      .meta({ id: "Ap2BuyerKey" }),
  },
});
