// The operations of /ap2/buyer_keys (lib/openapi/operation.ts): a payer's AP2 v0.2 user keys.
import { z } from "zod";
import { ListBuyerKeysQuery, RegisterBuyerKeyBody } from "@/lib/ap2/v02/buyer-keys";
import { operation } from "@/lib/openapi/operation";

export const Ap2BuyerKeySchema = z
  .object({
    id: z.string(),
    object: z.literal("ap2_buyer_key"),
    kid: z.string(),
    revokedAt: z.string().nullable(),
    spendingAgentId: z.string().nullable(),
  })
  .loose()
  .meta({ id: "Ap2BuyerKey" });

export const POST = operation({
  operationId: "registerAp2BuyerKey",
  summary: "AP2 v0.2: register the public key that signs this payer's mandates (kid = RFC 7638 thumbprint)",
  tag: "AP2",
  auth: "secret",
  permission: ["ap2", "write"],
  body: RegisterBuyerKeyBody,
  status: 201,
  responses: { 201: Ap2BuyerKeySchema },
});

export const GET = operation({
  operationId: "listAp2BuyerKeys",
  summary: "AP2 v0.2: list this payer's buyer keys, newest first (revoked ones with revokedAt)",
  tag: "AP2",
  auth: "secret",
  permission: ["ap2", "read"],
  query: ListBuyerKeysQuery,
  responses: {
    200: z.object({ object: z.literal("list"), data: z.array(Ap2BuyerKeySchema), hasMore: z.boolean() }).meta({ id: "Ap2BuyerKeyList" }),
  },
});
