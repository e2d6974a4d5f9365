// The operations of /v1/refunds (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { CreateRefundBody, ListRefundsQuery, RefundList, RefundObject } from "@/lib/refunds/schemas";

export const POST = operation({
  operationId: "createRefund",
  summary: "Refund a PaymentIntent or an order, in full or in part",
  tag: "Refunds",
  auth: "secret",
  permission: ["refunds", "write"],
  body: CreateRefundBody,
  status: 201,
  bodyName: "CreateRefundParams",
  responses: { 201: RefundObject },
  sdk: { resource: "refunds", method: "create" },
});

export const GET = operation({
  operationId: "listRefunds",
  summary: "List refunds",
  tag: "Refunds",
  auth: "secret",
  permission: ["refunds", "read"],
  query: ListRefundsQuery,
  responses: { 200: RefundList },
  sdk: { resource: "refunds", method: "list", params: "params?: T.ListRefundsParams" },
});
