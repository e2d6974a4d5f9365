// The operations of /visa/checkouts/{id} (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";

export const GET = operation({
  operationId: "browseVisaCheckout",
  summary: "A merchant's checkout terms for a browsing agent (payer key + TAP signature, tag agent-browser-auth)",
  tag: "Visa",
  auth: "secret",
  permission: ["visa", "read"],
  transaction: false,
  responses: { 200: { description: "The checkout's terms" } },
});
