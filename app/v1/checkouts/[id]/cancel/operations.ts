// The operations of /v1/checkouts/{id}/cancel (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { CancelCheckoutBody, CheckoutObject } from "@/lib/checkouts/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "cancelCheckout",
  summary: "Cancel an open checkout",
  tag: "Checkouts",
  auth: "secret",
  permission: ["checkouts", "write"],
  body: CancelCheckoutBody,
  responses: { 200: CheckoutObject },
  sdk: { resource: "checkouts", method: "cancel" },
});
