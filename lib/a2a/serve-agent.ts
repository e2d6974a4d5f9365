// The merchant agent's HTTP surface, for Next route handlers (no Express; docs/a2a.md). JSON-RPC at
// POST /a2a/:merchantId: A2A v1.0 (`A2A-Version: 1.0`, methods SendMessage, GetTask, ListTasks, CancelTask, ...)
// through the SDK's JsonRpcTransportHandler, and v0.3 (no A2A-Version header, or 0.3: message/send, tasks/get,
// ...) through its LegacyJsonRpcTransportHandler, both over the same request handler (request-handler.ts: the
// SDK's DefaultRequestHandler with the Postgres task and push config stores). SendStreamingMessage and
// SubscribeToTask answer Server-Sent Events (sse.ts). The caller is the buyer: its Bearer API key (limited per key like every authenticated path) selects the
// mode and owns the tasks. Errors are JSON-RPC error objects: the SDK's for protocol errors; ours, in the same
// envelope, for what happens before the SDK (no key: 401, limited: 429, unknown agent: 404, body too large: 413,
// a restricted key without a2a:write, or without ap2:write when the request activates the AP2 extension: 403 with
// data { reason: "permission_denied", resource, required }; docs/restricted-keys.md; the database unreachable: 503,
// -32603 with data { code: "CIRCUIT_OPEN", reason: "database_unavailable" } and Retry-After).
import { Extensions, HTTP_EXTENSION_HEADER } from "@a2a-js/sdk";
import { LEGACY_HTTP_EXTENSION_HEADER } from "@a2a-js/sdk/compat/v0_3";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { JsonRpcTransportHandler, ServerCallContext, validateVersion, type User } from "@a2a-js/sdk/server";
import { getDb } from "../db";
import { demoMerchantId } from "../merchants/demo";
import { findAgentMerchant } from "../merchants/find-agent-merchant";
import { DomainError, NotFoundError, RateLimitedError, UnauthorizedError } from "../errors";
import { TooManyStreamsError } from "../events/stream-leases";
import { byApiKey } from "../http/authenticate";
import { isDatabaseUnavailable } from "../db-availability";
import { jsonRpcDatabaseUnavailable, type HttpResult } from "../http/errors";
import { byClientIp, pipeline, type Steps } from "../http/pipeline";
import type { Caller } from "../scope";
import { readBodyText } from "../http/read-body";
import { allows, isPermissionDenied, PermissionDeniedError, type Permission } from "../merchants/permissions";
import { AP2_EXTENSION_URI, AP2_V02_EXTENSION_URI } from "../integrations/a2a-versions";
import { agentCardJson, buildAgentCard } from "./card";
import { signAgentCard } from "./card-signature";
import { MerchantRequestHandler } from "./request-handler";
import { firstOf, sseResponse } from "./sse";
import { SUBSCRIBE_METHODS, withSubscriptionSlot } from "./subscription-lease";

const BODY_LIMIT = 256 * 1024;

/** The caller as the SDK sees it: the buyer's merchant id owns its tasks and push configs. */
export class Buyer implements User {
  constructor(private readonly merchantId: string) {}
  get isAuthenticated() {
    return true;
  }
  get userName() {
    return this.merchantId;
  }
}

/** JSON-RPC 2.0 error envelope (id null: the request was not read). Codes: JSON-RPC's and the A2A error table's. */
function rpcErrorBody(code: number, message: string, data?: unknown) {
  return { jsonrpc: "2.0", id: null, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

export function rpcError(status: number, code: number, message: string, headers = new Headers(), data?: unknown): Response {
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify(rpcErrorBody(code, message, data)), { status, headers });
}

function isLegacy(version: string | undefined): boolean {
  return !version || /^0\.\d+$/.test(version);
}

/** What fails before the SDK (no key, limited, unknown agent, a body too large), in the JSON-RPC envelope. */
function a2aErrorResult(err: unknown, _requestId: string, headers: Headers): HttpResult {
  if (isDatabaseUnavailable(err)) return jsonRpcDatabaseUnavailable();
  if (err instanceof UnauthorizedError) {
    headers.set("WWW-Authenticate", 'Bearer realm="a2a"');
    const message = `Unauthorized: ${err.message} The agent card's security scheme is the buyer's API key as a Bearer token.`;
    return { status: 401, body: rpcErrorBody(-32600, message) };
  }
  if (err instanceof RateLimitedError)
    return { status: 429, body: rpcErrorBody(-32600, "Too many requests; retry after Retry-After seconds.") };
  if (err instanceof TooManyStreamsError) {
    headers.set("Retry-After", String(err.retryAfterSeconds));
    return { status: 429, body: rpcErrorBody(-32600, err.message, err.details) };
  }
  if (err instanceof NotFoundError) return { status: 404, body: rpcErrorBody(-32600, err.message) };
  if (isPermissionDenied(err)) return { status: 403, body: rpcErrorBody(-32600, err.message, { code: err.code, ...err.details }) };
  if (err instanceof DomainError) return { status: 400, body: rpcErrorBody(-32600, err.message) };
  console.error("a2a failed", err instanceof Error ? (err.stack ?? err.message) : err);
  return { status: 500, body: rpcErrorBody(-32603, "Internal error.") };
}

/** The buyer: its API key, limited per key (the request pipeline's API step, without an idempotency record). */
const BUYER: Steps<Caller> = { authenticate: byApiKey, claims: false, errorResult: a2aErrorResult };
/** The card: public, limited per client IP. */
const ANYONE: Steps<undefined> = { authenticate: byClientIp, claims: false, errorResult: a2aErrorResult };

/** The merchant agent's own permission; paying with AP2 mandates (the AP2 extension activated) also needs AP2's. */
export const A2A_PERMISSION: Permission = ["a2a", "write"];
export const AP2_PERMISSION: Permission = ["ap2", "write"];

/** Whether an extensions header activates AP2 (v0.1 or v0.2), which needs AP2_PERMISSION. */
export function asksForAp2(extensionHeader: string | undefined): boolean {
  return !!extensionHeader && (extensionHeader.includes(AP2_EXTENSION_URI) || extensionHeader.includes(AP2_V02_EXTENSION_URI));
}

/** POST /a2a/:merchantId: JSON-RPC; the SDK reads the body. */
export const serveAgentRpc = pipeline(
  BUYER,
  { rawInput: true, transaction: false, permission: A2A_PERMISSION },
  ({ req, caller, params, headers }) => answerRpc(req, caller, params.merchantId, headers),
);

async function answerRpc(req: Request, principal: Caller, merchantId: string, headers: Headers): Promise<Response> {
  const version = req.headers.get("a2a-version")?.trim() || undefined;
  const legacy = isLegacy(version);
  const merchant = await findAgentMerchant(merchantId);
  if (!merchant) throw new NotFoundError("merchant agent", merchantId);
  const text = await readBodyText(req, BODY_LIMIT);
  const scope = { merchantId: merchant.id, livemode: principal.livemode };
  const card = buildAgentCard(merchant);
  const left = new AbortController();
  const handler = new MerchantRequestHandler(card, merchant, scope, left.signal);
  // A2A-Extensions (v1.0) or X-A2A-Extensions (v0.3, and what the a2a-x402 spec v0.2 names): either activates.
  const extensionHeader = [req.headers.get(HTTP_EXTENSION_HEADER), req.headers.get(LEGACY_HTTP_EXTENSION_HEADER)].filter(Boolean).join(",");
  if (asksForAp2(extensionHeader) && !allows(principal.permissions, AP2_PERMISSION)) throw new PermissionDeniedError(AP2_PERMISSION);
  const context = new ServerCallContext({
    user: new Buyer(principal.merchantId),
    requestedVersion: version,
    requestedExtensions: Extensions.parseServiceParameter(extensionHeader || undefined),
  });
  const transport = legacy ? new LegacyJsonRpcTransportHandler(handler) : new JsonRpcTransportHandler(handler);
  const mapError = legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
  try {
    validateVersion(context.requestedVersion, card, "JSONRPC");
  } catch (err) {
    return rpcError(400, mapError(err).code, mapError(err).message, headers);
  }
  const method = methodOf(text);
  const result = SUBSCRIBE_METHODS.has(method)
    ? await withSubscriptionSlot(principal, () => transport.handle(text, context))
    : await transport.handle(text, context);
  const setActivated = () => {
    const activated = context.activatedExtensions ?? [];
    if (activated.length) headers.set(legacy ? LEGACY_HTTP_EXTENSION_HEADER : HTTP_EXTENSION_HEADER, activated.join(", "));
  };
  if (result && typeof (result as AsyncGenerator)[Symbol.asyncIterator] === "function") {
    // SendStreamingMessage, SubscribeToTask (message/stream, tasks/resubscribe in v0.3): Server-Sent Events whose
    // data are JSON-RPC responses; an error before the first event is a plain JSON-RPC error, as the SDK answers.
    const stream = result as AsyncGenerator<unknown, void, undefined>;
    const first = await firstOf(stream);
    const errorOf = (err: unknown) => ({ jsonrpc: "2.0", id: requestIdOf(text), error: mapError(err) });
    if (!first.ok) return jsonResponse(errorOf(first.err), headers);
    setActivated();
    const drain = method === "SendStreamingMessage" || method === "message/stream";
    return sseResponse(stream, first.first, headers, {
      drain,
      toJson: (event) => event,
      errorBody: errorOf,
      signal: req.signal,
      onDetach: () => left.abort(),
    });
  }
  setActivated();
  return jsonResponse(result, headers);
}

function methodOf(text: string): string {
  try {
    return String((JSON.parse(text) as { method?: unknown }).method);
  } catch {
    return ""; // unreadable: the SDK answers its parse error
  }
}

function requestIdOf(text: string): string | number | null {
  try {
    return ((JSON.parse(text) as { id?: unknown }).id ?? null) as string | number | null;
  } catch {
    return null; // unreadable: id stays null
  }
}

function jsonResponse(body: unknown, headers: Headers): Response {
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify(body), { status: 200, headers });
}

/**
 * GET /a2a/:merchantId/.well-known/agent-card.json: public, limited per client IP. Without a merchantId: the root
 * /.well-known/agent-card.json, which answers for the demo merchant (404 when there is none).
 */
export const serveAgentCard = pipeline(ANYONE, { rawInput: true, transaction: false }, async ({ params, headers }) => {
  const id = params.merchantId ?? (await demoMerchantId(getDb()));
  if (!id) throw new NotFoundError("merchant agent (no demo merchant on this deployment)");
  const merchant = await findAgentMerchant(id);
  if (!merchant) throw new NotFoundError("merchant agent", id);
  headers.set("Content-Type", "application/json");
  headers.set("Cache-Control", "public, max-age=300");
  return new Response(JSON.stringify(agentCardJson(await signAgentCard(buildAgentCard(merchant)))), { status: 200, headers });
});
