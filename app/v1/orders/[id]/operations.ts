// The operations of /v1/orders/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { OrderObject } from "@/lib/orders/schemas";

export const GET = operation({
  operationId: "getOrder",
  summary: "Retrieve an order",
  tag: "Orders",
  auth: "secret",
  permission: ["orders", "read"],
  responses: { 200: OrderObject },
  sdk: { resource: "orders", method: "retrieve" },
});
