// The operations of /v1/refunds/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { RefundObject } from "@/lib/refunds/schemas";

export const GET = operation({
  operationId: "getRefund",
  summary: "Retrieve a refund",
  tag: "Refunds",
  auth: "secret",
  permission: ["refunds", "read"],
  responses: { 200: RefundObject },
  sdk: { resource: "refunds", method: "retrieve" },
});
