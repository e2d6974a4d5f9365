// The operations of /v1/checkouts/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { CheckoutObject } from "@/lib/checkouts/schemas";
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "getCheckout",
  summary: "Retrieve a checkout",
  tag: "Checkouts",
  auth: "secret",
  permission: ["checkouts", "read"],
  responses: { 200: CheckoutObject },
  sdk: { resource: "checkouts", method: "retrieve" },
});
