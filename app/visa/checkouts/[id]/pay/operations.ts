// The operations of /visa/checkouts/{id}/pay (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { operation } from "@/lib/openapi/operation";
import { VisaPayBody } from "@/lib/visa/schemas";

export const POST = operation({
  operationId: "payVisaCheckout",
  summary: "Pay a merchant's checkout with a single-use Visa credential (payer key + TAP signature, tag agent-payer-auth)",
  tag: "Visa",
  auth: "secret",
  permission: ["visa", "write"],
  body: VisaPayBody,
  idempotent: false,
  responses: { 200: { description: "The paid order" } },
});
