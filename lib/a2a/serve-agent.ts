// The merchant agent's HTTP surface, for Next route handlers (no Express; docs/a2a.md). JSON-RPC at
// POST /a2a/:merchantId: A2A v1.0 (`A2A-Version: 1.0`, methods SendMessage, GetTask, ListTasks, CancelTask, ...)
// through the SDK's JsonRpcTransportHandler, and v0.3 (no A2A-Version header, or 0.3: message/send, tasks/get,
// ...) through its LegacyJsonRpcTransportHandler, both over the same DefaultRequestHandler with the Postgres task
// store. The caller is the buyer: its Bearer API key (limited per key like every authenticated path) selects the
// mode and owns the tasks. Errors are JSON-RPC error objects: the SDK's for protocol errors; ours, in the same
// envelope, for what happens before the SDK (no key: 401, limited: 429, unknown agent: 404, body too large: 413).
import { Extensions, HTTP_EXTENSION_HEADER } from "@a2a-js/sdk";
import { LEGACY_HTTP_EXTENSION_HEADER } from "@a2a-js/sdk/compat/v0_3";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { DefaultRequestHandler, JsonRpcTransportHandler, ServerCallContext, validateVersion, type User } from "@a2a-js/sdk/server";
import { getDb } from "../db";
import { demoMerchantId } from "../merchants/demo";
import { findAgentMerchant } from "../merchants/find-agent-merchant";
import { DomainError, NotFoundError, RateLimitedError, UnauthorizedError } from "../errors";
import { authenticateAndLimit } from "../http/authenticate";
import { limitByClientIp } from "../http/rate-limit-step";
import { readBodyText } from "../http/read-body";
import { agentCardJson, buildAgentCard } from "./card";
import { MerchantAgent } from "./merchant-agent";
import { PostgresTaskStore } from "./task-store";

const BODY_LIMIT = 256 * 1024;

class Buyer implements User {
  constructor(private readonly merchantId: string) {}
  get isAuthenticated() {
    return true;
  }
  get userName() {
    return this.merchantId;
  }
}

/** JSON-RPC 2.0 error envelope (id null: the request was not read). Codes: JSON-RPC's and the A2A error table's. */
export function rpcError(status: number, code: number, message: string, headers = new Headers(), data?: unknown): Response {
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message, ...(data === undefined ? {} : { data }) } }), {
    status,
    headers,
  });
}

function isLegacy(version: string | undefined): boolean {
  return !version || /^0\.\d+$/.test(version);
}

function domainErrorResponse(err: unknown, headers: Headers): Response | null {
  if (err instanceof UnauthorizedError) {
    headers.set("WWW-Authenticate", 'Bearer realm="a2a"');
    return rpcError(
      401,
      -32600,
      `Unauthorized: ${err.message} The agent card's security scheme is the buyer's API key as a Bearer token.`,
      headers,
    );
  }
  if (err instanceof RateLimitedError) return rpcError(429, -32600, "Too many requests; retry after Retry-After seconds.", headers);
  if (err instanceof NotFoundError) return rpcError(404, -32600, err.message, headers);
  if (err instanceof DomainError) return rpcError(400, -32600, err.message, headers);
  return null;
}

export async function serveAgentRpc(req: Request, merchantId: string): Promise<Response> {
  const headers = new Headers();
  const version = req.headers.get("a2a-version")?.trim() || undefined;
  const legacy = isLegacy(version);
  try {
    const { caller: principal } = await authenticateAndLimit(req, headers);
    const merchant = await findAgentMerchant(merchantId);
    if (!merchant) throw new NotFoundError("merchant agent", merchantId);
    const text = await readBodyText(req, BODY_LIMIT);
    const scope = { merchantId: merchant.id, livemode: principal.livemode };
    const card = buildAgentCard(merchant);
    const handler = new DefaultRequestHandler(
      card,
      new PostgresTaskStore(scope),
      new MerchantAgent(merchant, scope),
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      { keepBusAliveStates: [] },
    );
    // A2A-Extensions (v1.0) or X-A2A-Extensions (v0.3, and what the a2a-x402 spec v0.2 names): either activates.
    const extensionHeader = [req.headers.get(HTTP_EXTENSION_HEADER), req.headers.get(LEGACY_HTTP_EXTENSION_HEADER)]
      .filter(Boolean)
      .join(",");
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
    let result = await transport.handle(text, context);
    if (result && typeof (result as AsyncGenerator)[Symbol.asyncIterator] === "function") {
      // Streaming is not in the card (capabilities.streaming false): the SDK refuses it at the first event.
      const stream = result as AsyncGenerator<unknown>;
      try {
        const first = await stream.next();
        result = first.done ? { jsonrpc: "2.0", id: null, result: null } : (first.value as typeof result);
        await stream.return(undefined);
      } catch (err) {
        let id: unknown = null;
        try {
          id = (JSON.parse(text) as { id?: unknown }).id ?? null;
        } catch {
          // unreadable: id stays null
        }
        result = { jsonrpc: "2.0", id: id as string | number | null, error: mapError(err) };
      }
    }
    const activated = context.activatedExtensions ?? [];
    if (activated.length) headers.set(legacy ? LEGACY_HTTP_EXTENSION_HEADER : HTTP_EXTENSION_HEADER, activated.join(", "));
    headers.set("Content-Type", "application/json");
    return new Response(JSON.stringify(result), { status: 200, headers });
  } catch (err) {
    const answer = domainErrorResponse(err, headers);
    if (answer) return answer;
    console.error("a2a rpc failed", err instanceof Error ? (err.stack ?? err.message) : err);
    return rpcError(500, -32603, "Internal error.", headers);
  }
}

/**
 * GET /a2a/:merchantId/.well-known/agent-card.json: public, limited per client IP. `merchantId` null: the root
 * /.well-known/agent-card.json, which answers for the demo merchant (404 when there is none).
 */
export async function serveAgentCard(req: Request, merchantId: string | null): Promise<Response> {
  const headers = new Headers();
  try {
    await limitByClientIp(req, headers);
    const id = merchantId ?? (await demoMerchantId(getDb()));
    if (!id) throw new NotFoundError("merchant agent (no demo merchant on this deployment)");
    const merchant = await findAgentMerchant(id);
    if (!merchant) throw new NotFoundError("merchant agent", id);
    headers.set("Content-Type", "application/json");
    headers.set("Cache-Control", "public, max-age=300");
    return new Response(JSON.stringify(agentCardJson(buildAgentCard(merchant))), { status: 200, headers });
  } catch (err) {
    const answer = domainErrorResponse(err, headers);
    if (answer) return answer;
    console.error("a2a card failed", err instanceof Error ? err.message : err);
    return rpcError(500, -32603, "Internal error.", headers);
  }
}
