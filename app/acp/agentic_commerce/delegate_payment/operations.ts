// The operations of /acp/agentic_commerce/delegate_payment (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (acpRoute) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { documented } from "@/lib/openapi/operation";

export const POST = documented({
  operationId: "delegateAcpPayment",
  summary: "ACP delegated payment: a card with an allowance into a token usable only within it",
  tag: "ACP",
  auth: "secret",
  permission: ["acp", "write"],
  responses: { 201: { description: "ACP's delegated payment token" } },
  errors: { description: "ACP's flat error: { type, code, message, param? }" },
});
