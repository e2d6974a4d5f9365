// The operations of /v1/orders (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { ListOrdersQuery, OrderList } from "@/lib/orders/schemas";

export const GET = operation({
  operationId: "listOrders",
  summary: "List orders",
  tag: "Orders",
  auth: "secret",
  permission: ["orders", "read"],
  query: ListOrdersQuery,
  responses: { 200: OrderList },
  sdk: { resource: "orders", method: "list", params: "params?: T.ListOrdersParams" },
});
