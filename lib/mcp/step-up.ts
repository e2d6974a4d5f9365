// Scope step-up (MCP authorization 2025-11-25 "Scope Challenge Handling", RFC 6750 3.1): a tools/call whose OAuth
// token lacks the scope the tool needs is answered, before the tool runs, HTTP 403 with
// `WWW-Authenticate: Bearer error="insufficient_scope", scope="...", resource_metadata="..."`, so that the client
// authorizes again for more and retries. The challenge's scope is the token's scopes plus the one needed (the
// spec's recommended approach: a client that asks for exactly it keeps what it had). Tokens list every tool; API
// keys hold every scope, so a key never meets this (a restricted key's tools are decided by its permissions,
// lib/mcp/tools.ts).
import { resourceMetadataUrl, SCOPES, type Scope } from "../oauth/config";
import type { McpPrincipal } from "./principal";
import { TOOLS } from "./tool-definitions";

const ACCESS_BY_TOOL = new Map<string, Scope>(TOOLS.map((tool) => [tool.name, tool.access]));

/** The 403 step-up challenge for calling `tool` with this principal, or null when its scopes allow the call. */
export function insufficientScopeResponse(principal: Pick<McpPrincipal, "scopes">, tool: string, headers: Headers): Response | null {
  const needed = ACCESS_BY_TOOL.get(tool);
  if (needed === undefined || principal.scopes.includes(needed)) return null;
  const scope = SCOPES.filter((s) => s === needed || principal.scopes.includes(s)).join(" ");
  const description = `The tool '${tool}' needs the '${needed}' scope: authorize again with scope '${scope}'.`;
  headers.set(
    "WWW-Authenticate",
    `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${resourceMetadataUrl()}", error_description="${description}"`,
  );
  headers.set("Content-Type", "application/json");
  const body = {
    error: { code: "FORBIDDEN", message: description, details: { reason: "insufficient_scope", requiredScope: needed, scope } },
  };
  return new Response(JSON.stringify(body), { status: 403, headers });
}
