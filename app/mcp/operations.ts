// The operations of /mcp (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (handleMcp) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { MCP_CREDENTIAL } from "@/lib/openapi/protocol-auth";
import { documented } from "@/lib/openapi/operation";

export const GET = documented({
  operationId: "getMcp",
  summary: "The MCP server's event stream (Streamable HTTP)",
  tag: "MCP",
  auth: MCP_CREDENTIAL,
  permission: ["mcp", "read"],
  responses: { 200: { description: "The MCP transport's answer" } },
  errors: {
    description: "401 with WWW-Authenticate naming the protected resource metadata, 403 for a foreign Host or Origin, or a JSON-RPC error",
  },
});

export const POST = documented({
  operationId: "postMcp",
  summary: "One MCP JSON-RPC message (Streamable HTTP): initialize, tools/list, tools/call, ...",
  tag: "MCP",
  auth: MCP_CREDENTIAL,
  permission: ["mcp", "read"],
  responses: { 200: { description: "The MCP transport's answer" } },
  errors: {
    description: "401 with WWW-Authenticate naming the protected resource metadata, 403 for a foreign Host or Origin, or a JSON-RPC error",
  },
});

export const DELETE = documented({
  operationId: "deleteMcp",
  summary: "End an MCP session",
  tag: "MCP",
  auth: MCP_CREDENTIAL,
  permission: ["mcp", "read"],
  responses: { 200: { description: "The MCP transport's answer" } },
  errors: {
    description: "401 with WWW-Authenticate naming the protected resource metadata, 403 for a foreign Host or Origin, or a JSON-RPC error",
  },
});
