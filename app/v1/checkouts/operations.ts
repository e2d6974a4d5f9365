// The operations of /v1/checkouts (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { CheckoutList, CheckoutObject, ListCheckoutsQuery, OpenCheckoutBody } from "@/lib/checkouts/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "createCheckout",
  summary: "Open a checkout",
  tag: "Checkouts",
  auth: "secret",
  permission: ["checkouts", "write"],
  body: OpenCheckoutBody,
  status: 201,
  bodyName: "CreateCheckoutParams",
  responses: { 201: CheckoutObject },
  sdk: { resource: "checkouts", method: "create" },
});

export const GET = operation({
  operationId: "listCheckouts",
  summary: "List checkouts",
  tag: "Checkouts",
  auth: "secret",
  permission: ["checkouts", "read"],
  query: ListCheckoutsQuery,
  responses: { 200: CheckoutList },
  sdk: { resource: "checkouts", method: "list", params: "params?: T.ListCheckoutsParams" },
});
