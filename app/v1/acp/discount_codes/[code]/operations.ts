// The operations of /v1/acp/discount_codes/{code} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { DeletedDiscountCode } from "@/lib/acp/discount-codes";
import { operation } from "@/lib/openapi/operation";

export const DELETE = operation({
  operationId: "deleteAcpDiscountCode",
  summary: "Delete an ACP discount code (open sessions no longer get it)",
  tag: "ACP",
  auth: "secret",
  permission: ["acp", "write"],
  responses: { 200: DeletedDiscountCode },
  sdk: { resource: "acpDiscountCodes", method: "del", ids: "code" },
});
