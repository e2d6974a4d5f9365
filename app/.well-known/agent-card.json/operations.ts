// The operations of /.well-known/agent-card.json (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (serveAgentCard) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { documented } from "@/lib/openapi/operation";

export const GET = documented({
  operationId: "getRootA2aAgentCard",
  summary: "The root agent card: the demo merchant's agent",
  tag: "A2A",
  auth: "public",
  responses: { 200: { description: "The agent card" } },
});
