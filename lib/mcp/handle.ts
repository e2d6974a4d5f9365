// /mcp: the service's own MCP server over Streamable HTTP (the official SDK's fetch-style transport),
// stateless: each POST gets a fresh server and transport, so any process answers any request.
// The request pipeline (lib/http/pipeline.ts) with this endpoint's authentication step: Host/Origin must be this
// deployment's (BASE_URL; DNS-rebinding protection) -> 403; a token from the client IP's bucket -> 429; a bearer
// (OAuth access token or API key) -> else 401 with WWW-Authenticate naming the protected-resource metadata
// (RFC 9728, MCP authorization spec) -> a restricted API key needs `mcp` read (403 permission_denied; its tools
// then list only what it may call, lib/mcp/tools.ts). Then, before the transport: the body, at most 64 KiB
// (413) and one JSON-RPC message (a batch is a JSON-RPC error, lib/mcp/message.ts); a `tools/call` of a tool the
// OAuth token's scopes do not allow is the 403 step-up challenge (lib/mcp/step-up.ts); else it takes a token
// from the caller's own bucket (an API key's is its /v1 bucket; 429) and one of its call slots (429,
// lib/mcp/call-slots.ts). Errors carry the error contract's code and message (and a permission or rate-limit
// refusal its details).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { env } from "../env";
import { ForbiddenError, UnauthorizedError } from "../errors";
import { isDatabaseUnavailable } from "../db-availability";
import { jsonRpcDatabaseUnavailable, toErrorResult, type ErrorBody, type HttpResult } from "../http/errors";
import { pipeline, type Authenticate, type Steps } from "../http/pipeline";
import { enforceRateLimit, limitByClientIp } from "../http/rate-limit-step";
import { BodyTooLargeError } from "../http/read-body";
import { resourceMetadataUrl } from "../oauth/config";
import { allows, isPermissionDenied, PermissionDeniedError, type Permission } from "../merchants/permissions";
import { inCallSlot } from "./call-slots";
import { calledTool, JsonRpcRefusal, readMessage } from "./message";
import { mcpPrincipal, type McpPrincipal } from "./principal";
import { insufficientScopeResponse } from "./step-up";
import { registerTools } from "./tools";

export const MCP_SERVER_INFO = { name: "agent-payments-service", version: "1.0.0" };

function jsonError(status: number, code: string, message: string, headers: Headers): Response {
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify({ error: { code, message, details: {} } }), { status, headers });
}

/** Host and Origin (when sent) must be this deployment's own, exactly. */
export function foreignHostOrOrigin(req: Request): string | null {
  const base = new URL(env.BASE_URL);
  const host = req.headers.get("host");
  if (host !== base.host) return `Host '${(host ?? "").slice(0, 100)}' is not this server's.`;
  const origin = req.headers.get("origin");
  if (origin !== null && origin !== base.origin) return `Origin '${origin.slice(0, 100)}' is not this server's.`;
  return null;
}

/**
 * The MCP endpoint's authentication step: Host/Origin must be this deployment's (403) before anything else, then a
 * token from the client IP's bucket (429), then the bearer (401 with WWW-Authenticate naming the metadata).
 */
const byMcpBearer: Authenticate<McpPrincipal> = async (req, headers) => {
  const foreign = foreignHostOrOrigin(req);
  if (foreign) throw new ForbiddenError(`${foreign} (DNS-rebinding protection)`);
  await limitByClientIp(req, headers);
  const principal = await mcpPrincipal(req);
  if (principal === null || principal === "invalid") {
    const error =
      principal === "invalid" ? ` error="invalid_token", error_description="The access token is invalid, expired or revoked",` : "";
    headers.set("WWW-Authenticate", `Bearer${error} resource_metadata="${resourceMetadataUrl()}"`);
    throw new UnauthorizedError("Send 'Authorization: Bearer <OAuth access token or API key>'.");
  }
  if (!allows(principal.permissions, MCP_PERMISSION)) throw new PermissionDeniedError(MCP_PERMISSION);
  return { caller: principal };
};

/** What a restricted key needs to speak to /mcp at all; each tool then declares its own (lib/mcp/tools.ts). */
export const MCP_PERMISSION: Permission = ["mcp", "read"];

/** The error contract's code and message (a permission or rate-limit refusal with its details); JSON-RPC's refusals. */
function mcpErrorResult(err: unknown, requestId: string): HttpResult {
  if (err instanceof JsonRpcRefusal) {
    return { status: err.status, body: { jsonrpc: "2.0", id: null, error: { code: err.code, message: err.message } } };
  }
  if (isDatabaseUnavailable(err)) return jsonRpcDatabaseUnavailable(); // 503 with Retry-After
  const { status, body } = toErrorResult(err, requestId);
  const { code, message, details } = (body as ErrorBody).error;
  const shown = isPermissionDenied(err) || code === "RATE_LIMITED" ? details : {};
  return { status: err instanceof BodyTooLargeError ? 413 : status, body: { error: { code, message, details: shown } } };
}

const MCP: Steps<McpPrincipal> = {
  authenticate: byMcpBearer,
  claims: false,
  headers: { "Cache-Control": "no-store" },
  errorResult: mcpErrorResult,
};

export const handleMcp = pipeline(MCP, { rawInput: true, transaction: false }, async ({ req, caller: principal, headers }) => {
  if (req.method !== "POST") {
    // Stateless: no standalone SSE stream (GET) and no session to end (DELETE).
    headers.set("Allow", "POST");
    return jsonError(405, "METHOD_NOT_ALLOWED", "This MCP server is stateless: use POST.", headers);
  }
  const message = await readMessage(req);
  const tool = calledTool(message);
  if (tool === null) return serve(req, message, principal, null, headers);
  const stepUp = insufficientScopeResponse(principal, tool, headers);
  if (stepUp) return stepUp;
  await enforceRateLimit(principal.bucket, headers);
  return inCallSlot(principal.bucket, headers, () => serve(req, message, principal, tool, headers));
});

/** The SDK's transport and a fresh server with the principal's tools answer the message. */
async function serve(req: Request, message: unknown, principal: McpPrincipal, tool: string | null, headers: Headers): Promise<Response> {
  const server = new McpServer(MCP_SERVER_INFO, { capabilities: { tools: {} } });
  registerTools(server, principal, new Set(tool ? [tool] : []));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  const res = await transport.handleRequest(req, {
    parsedBody: message,
    authInfo: { token: principal.token, clientId: principal.clientId, scopes: principal.scopes, expiresAt: principal.expiresAt },
  });
  headers.forEach((value, key) => res.headers.set(key, value)); // ours over the SDK's (no-store over its no-cache)
  void server.close().catch(() => undefined);
  return res;
}
