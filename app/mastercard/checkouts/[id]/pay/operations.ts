// The operations of /mastercard/checkouts/{id}/pay (lib/openapi/operation.ts): the route's api() options and its OpenAPI entry.
import { PayCheckoutBody } from "@/lib/mastercard/schemas";
import { operation } from "@/lib/openapi/operation";

export const POST = operation({
  operationId: "payMastercardCheckout",
  summary: "A verified agent pays a merchant's checkout with its agentic token and a fresh code",
  tag: "Mastercard",
  auth: "secret",
  permission: ["mastercard", "write"],
  body: PayCheckoutBody,
  idempotent: false,
  responses: { 200: { description: "The paid order" } },
});
