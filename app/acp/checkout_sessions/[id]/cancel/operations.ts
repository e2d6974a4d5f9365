// The operations of /acp/checkout_sessions/{id}/cancel (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (acpRoute) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { documented } from "@/lib/openapi/operation";

export const POST = documented({
  operationId: "cancelAcpCheckoutSession",
  summary: "ACP: cancel a checkout session (405 once completed or canceled)",
  tag: "ACP",
  auth: "secret",
  permission: ["acp", "write"],
  responses: { 200: { description: "ACP's CheckoutSession" } },
  errors: { description: "ACP's flat error: { type, code, message, param? }" },
});
