// The operations of /a2a/{merchantId}/.well-known/agent-card.json (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (serveAgentCard) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { documented } from "@/lib/openapi/operation";

export const GET = documented({
  operationId: "getA2aAgentCard",
  summary: "The merchant agent's card (A2A v1.0)",
  tag: "A2A",
  auth: "public",
  responses: { 200: { description: "The agent card" } },
});
