// The operations of /ap2/buyer_keys/{id}/revoke (lib/openapi/operation.ts): revoking a payer's AP2 v0.2 user key.
import { operation } from "@/lib/openapi/operation";
import { Ap2BuyerKeySchema } from "../../operations";

export const POST = operation({
  operationId: "revokeAp2BuyerKey",
  summary: "AP2 v0.2: revoke a buyer key for good: every later mandate it signed is refused, nothing charged",
  tag: "AP2",
  auth: "secret",
  permission: ["ap2", "write"],
  responses: { 200: Ap2BuyerKeySchema },
});
