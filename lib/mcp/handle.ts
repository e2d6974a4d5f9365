// /mcp: the service's own MCP server over Streamable HTTP (the official SDK's fetch-style transport),
// stateless: each POST gets a fresh server and transport, so any process answers any request.
// Steps: Host/Origin must be this deployment's (BASE_URL; DNS-rebinding protection) -> 403;
// a token from the client IP's bucket -> 429; a bearer (OAuth access token or API key) -> else 401 with
// WWW-Authenticate naming the protected-resource metadata (RFC 9728, MCP authorization spec).
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { env } from "../env";
import { DomainError } from "../errors";
import { toErrorResult } from "../http/errors";
import { limitByClientIp } from "../http/rate-limit-step";
import { createId } from "../ids";
import { resourceMetadataUrl } from "../oauth/config";
import { mcpPrincipal } from "./principal";
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

export async function handleMcp(req: Request): Promise<Response> {
  const headers = new Headers({ "Request-Id": createId("request"), "Cache-Control": "no-store" });
  const foreign = foreignHostOrOrigin(req);
  if (foreign) return jsonError(403, "FORBIDDEN", `${foreign} (DNS-rebinding protection)`, headers);
  try {
    await limitByClientIp(req, headers);
    const principal = await mcpPrincipal(req);
    if (principal === null || principal === "invalid") {
      const error =
        principal === "invalid" ? ` error="invalid_token", error_description="The access token is invalid, expired or revoked",` : "";
      headers.set("WWW-Authenticate", `Bearer${error} resource_metadata="${resourceMetadataUrl()}"`);
      return jsonError(401, "UNAUTHORIZED", "Send 'Authorization: Bearer <OAuth access token or API key>'.", headers);
    }
    if (req.method !== "POST") {
      // Stateless: no standalone SSE stream (GET) and no session to end (DELETE).
      headers.set("Allow", "POST");
      return jsonError(405, "METHOD_NOT_ALLOWED", "This MCP server is stateless: use POST.", headers);
    }
    const server = new McpServer(MCP_SERVER_INFO, { capabilities: { tools: {} } });
    registerTools(server, principal);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    const res = await transport.handleRequest(req, {
      authInfo: { token: principal.token, clientId: principal.clientId, scopes: principal.scopes, expiresAt: principal.expiresAt },
    });
    headers.forEach((value, key) => res.headers.set(key, value));
    void server.close().catch(() => undefined);
    return res;
  } catch (err) {
    const result = toErrorResult(err, headers.get("Request-Id")!);
    const body = result.body as { error: { code: string; message: string } };
    if (!(err instanceof DomainError)) console.error("mcp:", err);
    return jsonError(result.status, body.error.code, body.error.message, headers);
  }
}
