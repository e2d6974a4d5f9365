// The operations of /a2a/{merchantId} (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (serveAgentRpc) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { documented } from "@/lib/openapi/operation";

export const POST = documented({
  operationId: "callA2aAgent",
  summary: "The merchant agent's JSON-RPC endpoint (A2A v1.0 and v0.3; the buyer's API key)",
  tag: "A2A",
  auth: "secret",
  permission: ["a2a", "write"],
  responses: { 200: { description: "A JSON-RPC 2.0 response" } },
  errors: { description: "A JSON-RPC 2.0 error envelope" },
});
