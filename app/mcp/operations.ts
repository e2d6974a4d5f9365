// The operations of /mcp (lib/openapi/operation.ts): what the OpenAPI document says of them. The route's own
// composition (handleMcp) reads its input; its permission is checked against this one (tests/unit/openapi-coverage.test.ts).
import { MCP_CREDENTIAL } from "@/lib/openapi/protocol-auth";
import { documented } from "@/lib/openapi/operation";

/** What the three methods of the one MCP transport share: the credential, the permission and the answers. */
const mcpTransport = {
  tag: "MCP",
  auth: MCP_CREDENTIAL,
  permission: ["mcp", "read"],
  responses: { 200: { description: "The MCP transport's answer" } },
  errors: {
    description: "401 with WWW-Authenticate naming the protected resource metadata, 403 for a foreign Host or Origin, or a JSON-RPC error",
  },
} as const;

export const GET = documented({ ...mcpTransport, operationId: "getMcp", summary: "The MCP server's event stream (Streamable HTTP)" });

export const POST = documented({
  ...mcpTransport,
  operationId: "postMcp",
  summary: "One MCP JSON-RPC message (Streamable HTTP): initialize, tools/list, tools/call, ...",
});

export const DELETE = documented({ ...mcpTransport, operationId: "deleteMcp", summary: "End an MCP session" });
