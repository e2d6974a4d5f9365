// The operations of /acp/checkout_sessions/{id} (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (acpRoute) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { documented } from "@/lib/openapi/operation";

export const GET = documented({
  operationId: "getAcpCheckoutSession",
  summary: "ACP: retrieve a checkout session",
  tag: "ACP",
  auth: "secret",
  permission: ["acp", "read"],
  responses: { 200: { description: "ACP's CheckoutSession" } },
  errors: { description: "ACP's flat error: { type, code, message, param? }" },
});

export const POST = documented({
  operationId: "updateAcpCheckoutSession",
  summary: "ACP: update a checkout session",
  tag: "ACP",
  auth: "secret",
  permission: ["acp", "write"],
  responses: { 200: { description: "ACP's CheckoutSession" } },
  errors: { description: "ACP's flat error: { type, code, message, param? }" },
});
