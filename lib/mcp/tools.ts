// The MCP server's tools (docs/oauth-and-mcp.md), registered from their table (lib/mcp/tool-definitions.ts) in one
// loop: the merchant's work through the same domain functions and error contract as /v1, for the caller's merchant
// and mode only (another merchant's object, or one of the other mode, is NOT_FOUND as in /v1).
//
// Scopes: `read` allows every read-only tool; `write` also allows create_checkout, create_refund and
// create_product. A call the token's scopes do not allow is answered before it gets here, HTTP 403 with the step-up
// challenge (lib/mcp/step-up.ts); the tool error FORBIDDEN (insufficient_scope) below only backs that up.
// Permissions (docs/restricted-keys.md): each tool declares the (resource, level) a restricted API key needs; such
// a key lists only the tools it may call (it also needs `mcp` at the tool's level), and calling another is the tool
// error FORBIDDEN permission_denied. OAuth tokens and secret keys see every tool.
// Errors are tool results with isError and the error contract's JSON ({ error: { code, message, details } }).
// Writes run through the request pipeline's own idempotent mutation (lib/http/pipeline.ts), as a /v1 POST does:
// money-moving tools take `idempotencyKey`, claimed in the API's idempotency store (scoped to the API key or the
// OAuth grant): the same key with the same arguments answers the first result again; with other arguments it is
// VALIDATION_ERROR, while the first still runs CONFLICT.
import type { McpServer, ToolCallback } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ZodRawShapeCompat } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { getDb, sql, type Db } from "../db";
import { DomainError } from "../errors";
import { toErrorResult, type HttpResult } from "../http/errors";
import { idempotentMutation } from "../http/pipeline";
import { createId } from "../ids";
import { claim, validateIdempotencyKey, type ClaimOutcome } from "../idempotency/claims";
import { requestFingerprint } from "../idempotency/fingerprint";
import { allows, PermissionDeniedError, type Permission } from "../merchants/permissions";
import type { Scope } from "../scope";
import type { McpPrincipal } from "./principal";
import { TOOLS, type ToolDefinition } from "./tool-definitions";

function ok(value: unknown): CallToolResult {
  const structured = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
}

function toolError(bodyText: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: bodyText }] };
}

function errorContract(err: unknown): HttpResult {
  return toErrorResult(err, createId("request"));
}

function failed(err: unknown): CallToolResult {
  return toolError(JSON.stringify(errorContract(err).body));
}

function requireScope(principal: McpPrincipal, scope: "read" | "write"): void {
  if (!principal.scopes.includes(scope)) {
    throw new DomainError("FORBIDDEN", `This token lacks the '${scope}' scope this tool needs: authorize again granting it.`, {
      reason: "insufficient_scope",
      requiredScope: scope,
    });
  }
}

function scopeOf(principal: McpPrincipal): Scope {
  return { merchantId: principal.merchantId, livemode: principal.livemode };
}

type Args = Record<string, unknown>;

/** A read: on the pool, its errors as tool errors. */
async function read(principal: McpPrincipal, definition: ToolDefinition, args: Args): Promise<CallToolResult> {
  try {
    requireScope(principal, "read");
    return ok(await definition.run(getDb(), scopeOf(principal), args));
  } catch (err) {
    return failed(err);
  }
}

/** The tool call's idempotency claim, made as the pipeline's authentication step makes a /v1 POST's. */
async function claimToolKey(principal: McpPrincipal, tool: string, key: string, input: Args): Promise<ClaimOutcome> {
  validateIdempotencyKey(key);
  const scope = { apiKeyId: principal.actor, livemode: principal.livemode, key };
  return claim(sql(), scope, requestFingerprint("MCP", `tools/${tool}`, input));
}

/**
 * A write, through the pipeline's idempotent mutation: the claim (when a key is sent), then the work and its stored
 * result in one transaction; an error whose state commits (a declined refund) is the stored result.
 */
async function write(principal: McpPrincipal, definition: ToolDefinition, args: Args): Promise<CallToolResult> {
  try {
    requireScope(principal, "write");
    const { idempotencyKey, ...input } = args;
    const outcome = await idempotentMutation<Db>({
      claim: typeof idempotencyKey === "string" ? await claimToolKey(principal, definition.name, idempotencyKey, input) : undefined,
      errorResult: errorContract,
      work: (tx) => definition.run(tx, scopeOf(principal), input),
    });
    if (!outcome.ok) return toolError(JSON.stringify(outcome.result.body));
    return outcome.status < 300 ? ok(JSON.parse(outcome.bodyText)) : toolError(outcome.bodyText);
  } catch (err) {
    return failed(err);
  }
}

/**
 * Whether the principal may see and call a tool that needs `permission`: OAuth tokens and secret keys may (their
 * scopes decide the rest); a restricted key needs the tool's (resource, level) and `mcp` at the same level.
 * Answers the permission it lacks, or null.
 */
export function missingToolPermission(principal: Pick<McpPrincipal, "permissions">, [resource, level]: Permission): Permission | null {
  if (!allows(principal.permissions, [resource, level])) return [resource, level];
  if (!allows(principal.permissions, ["mcp", level])) return ["mcp", level];
  return null;
}

/**
 * Registers the tools the principal may call, one loop over the table. A restricted key's other tools are not
 * listed; one this request calls by name (`called`) is registered without input schema so that calling it answers
 * the tool error FORBIDDEN permission_denied, before any argument is read.
 */
export function registerTools(server: McpServer, principal: McpPrincipal, called: ReadonlySet<string> = new Set()): void {
  const mode = principal.livemode ? "live" : "test";
  for (const definition of TOOLS) {
    const { name, title, inputSchema, outputSchema } = definition;
    const description = typeof definition.description === "string" ? definition.description : definition.description(mode);
    const annotations = { title, ...definition.annotations };
    const missing = missingToolPermission(principal, definition.permission);
    if (!missing) {
      const run = definition.access === "write" ? write : read;
      const callback: ToolCallback<ZodRawShapeCompat> = (args) => run(principal, definition, args);
      server.registerTool(name, { title, description, inputSchema, outputSchema, annotations }, callback);
    } else if (called.has(name)) {
      server.registerTool(name, { title, description, annotations }, () => failed(new PermissionDeniedError(missing)));
    }
  }
}

/** Every tool's name and the permission it declares (the docs' table and tests/unit/route-permissions.test.ts). */
export function toolPermissions(): Map<string, Permission> {
  return new Map(TOOLS.map((definition) => [definition.name, definition.permission]));
}
