// The operations of /acp/checkout_sessions/{id}/complete (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (acpRoute) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { documented } from "@/lib/openapi/operation";

export const POST = documented({
  operationId: "completeAcpCheckoutSession",
  summary: "ACP: complete a checkout session (pays the cart with a shared payment token)",
  tag: "ACP",
  auth: "secret",
  permission: ["acp", "write"],
  responses: { 200: { description: "ACP's CheckoutSession with its order" } },
  errors: { description: "ACP's flat error: { type, code, message, param? }" },
});
