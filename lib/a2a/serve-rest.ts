// The merchant agent's HTTP+JSON (REST) binding (A2A v1.0 section 11; docs/a2a.md "HTTP+JSON binding"), beside
// JSON-RPC under the same address and over the same request handler (request-handler.ts), so both serve the same
// tasks. The SDK ships this binding only as Express middleware (restHandler, which cannot serve a Next route
// handler) and does not export its framework-agnostic RestTransportHandler, so the routing table below mirrors the
// SDK's own (src/server/express/rest_handler.ts): the same paths, the SDK's ProtoJSON codecs (fromJSON/toJSON) for
// every body, its version check (validateVersion with "HTTP+JSON": v1.0 only, A2A-Version: 1.0) and its REST error
// bodies (toRestErrorBody / restStatusFor). Paths, under /a2a/:merchantId:
//   POST /message:send, POST /message:stream (SSE), GET /tasks, GET /tasks/{id}, POST /tasks/{id}:cancel,
//   GET|POST /tasks/{id}:subscribe (SSE), POST|GET /tasks/{id}/pushNotificationConfigs,
//   GET|DELETE /tasks/{id}/pushNotificationConfigs/{configId}, GET /extendedAgentCard.
// The buyer's API key as Bearer, as on JSON-RPC: reads (GET) need a2a:read, the rest a2a:write (and ap2:write to
// activate the AP2 extension). What fails before the SDK answers in the same REST error shape.
import {
  A2A_CONTENT_TYPE,
  Extensions,
  HTTP_EXTENSION_HEADER,
  ListTaskPushNotificationConfigsResponse,
  ListTasksResponse,
  SendMessageRequest,
  SendMessageResponse,
  StreamResponse,
  Task,
  TaskPushNotificationConfig,
  taskStateFromJSON,
  TaskState,
  type ListTasksRequest,
  type Message,
} from "@a2a-js/sdk";
import {
  A2AError,
  ContentTypeNotSupportedError,
  RequestMalformedError,
  restStatusFor,
  toRestErrorBody,
  UnsupportedOperationError,
} from "@a2a-js/sdk/errors";
import { ServerCallContext, validateVersion } from "@a2a-js/sdk/server";
import { isDatabaseUnavailable } from "../db-availability";
import { DomainError, NotFoundError, RateLimitedError, UnauthorizedError } from "../errors";
import { TooManyStreamsError } from "../events/stream-leases";
import { byApiKey } from "../http/authenticate";
import type { HttpResult } from "../http/errors";
import { pipeline, type Steps } from "../http/pipeline";
import { readBodyText } from "../http/read-body";
import { findAgentMerchant } from "../merchants/find-agent-merchant";
import { allows, isPermissionDenied, PermissionDeniedError, type Permission } from "../merchants/permissions";
import type { Caller } from "../scope";
import { buildAgentCard } from "./card";
import { MerchantRequestHandler } from "./request-handler";
import { A2A_PERMISSION, AP2_PERMISSION, asksForAp2, Buyer } from "./serve-agent";
import { firstOf, sseResponse } from "./sse";
import { withSubscriptionSlot } from "./subscription-lease";

const BODY_LIMIT = 256 * 1024;

/** Reading a task or its push configs over HTTP+JSON (GET). */
export const A2A_READ_PERMISSION: Permission = ["a2a", "read"];

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  405: "UNIMPLEMENTED",
  413: "INVALID_ARGUMENT",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

function restError(status: number, message: string, details: unknown[] = []): HttpResult {
  return { status, body: { error: { code: status, status: STATUS_NAMES[status] ?? "UNKNOWN", message, details } } };
}

/** What fails before the SDK, in the binding's error shape (google.rpc.Status-like, as toRestErrorBody writes). */
function restErrorResult(err: unknown, _requestId: string, headers: Headers): HttpResult {
  if (isDatabaseUnavailable(err)) return restError(503, "The database is unavailable; retry after the time in the Retry-After header.");
  if (err instanceof UnauthorizedError) {
    headers.set("WWW-Authenticate", 'Bearer realm="a2a"');
    return restError(401, `Unauthorized: ${err.message} The agent card's security scheme is the buyer's API key as a Bearer token.`);
  }
  if (err instanceof RateLimitedError) return restError(429, "Too many requests; retry after Retry-After seconds.");
  if (err instanceof TooManyStreamsError) {
    headers.set("Retry-After", String(err.retryAfterSeconds));
    return restError(429, err.message, [err.details]);
  }
  if (err instanceof NotFoundError) return restError(404, err.message);
  if (isPermissionDenied(err)) return restError(403, err.message, [{ code: err.code, ...err.details }]);
  if (err instanceof DomainError) return restError(400, err.message);
  console.error("a2a rest failed", err instanceof Error ? (err.stack ?? err.message) : err);
  return restError(500, "Internal error.");
}

const BUYER: Steps<Caller> = { authenticate: byApiKey, claims: false, errorResult: restErrorResult };

/** What the OpenAPI document says of this binding's errors (the routes' operations.ts). */
export const A2A_REST_ERRORS = {
  description: "The A2A HTTP+JSON error body: { error: { code, status, message, details } }",
  contentType: "application/a2a+json",
};

interface Call {
  req: Request;
  caller: Caller;
  /** Aborted when the client has gone (the handler's subscriptions stop following). */
  left: AbortController;
  url: URL;
  handler: MerchantRequestHandler;
  context: ServerCallContext;
  headers: Headers;
}

type Route = (call: Call, match: RegExpExecArray) => Promise<Response>;

function json(call: Call, status: number, body?: unknown): Response {
  const activated = call.context.activatedExtensions ?? [];
  if (activated.length) call.headers.set(HTTP_EXTENSION_HEADER, activated.join(", "));
  if (status === 204) return new Response(null, { status, headers: call.headers });
  call.headers.set("Content-Type", A2A_CONTENT_TYPE);
  return new Response(JSON.stringify(body), { status, headers: call.headers });
}

/** An A2A error of the SDK (or of the stores, which throw the SDK's), as the SDK's REST handler answers it. */
function errorResponse(headers: Headers, err: unknown): Response {
  const status = restStatusFor(err);
  headers.set("Content-Type", A2A_CONTENT_TYPE);
  return new Response(JSON.stringify(toRestErrorBody(err, status)), { status, headers });
}

async function bodyOf(call: Call): Promise<Record<string, unknown>> {
  const type = (call.req.headers.get("content-type") ?? "").split(";", 1)[0].trim().toLowerCase();
  if (type && type !== "application/json" && type !== A2A_CONTENT_TYPE)
    throw new ContentTypeNotSupportedError(`Unsupported Content-Type "${type}"; expected application/json or ${A2A_CONTENT_TYPE}.`);
  const text = await readBodyText(call.req, BODY_LIMIT);
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new RequestMalformedError("Invalid JSON payload.");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new RequestMalformedError("The body must be a JSON object.");
  return parsed as Record<string, unknown>;
}

function sendRequest(body: Record<string, unknown>) {
  const params = SendMessageRequest.fromJSON(body);
  if (!params.message) throw new RequestMalformedError("message is required");
  if (!params.message.messageId) throw new RequestMalformedError("message.messageId is required");
  return params;
}

function integer(value: string | null, name: string, min: number, max: number): number | undefined {
  if (value === null || value === "") return undefined;
  if (!/^\d{1,9}$/.test(value.trim())) throw new RequestMalformedError(`${name} must be a non-negative integer`);
  const n = Number(value);
  if (n < min || n > max) throw new RequestMalformedError(`${name} must be between ${min} and ${max}`);
  return n;
}

function stream(call: Call, events: AsyncGenerator<StreamResponse, void, undefined>, drain: boolean): Promise<Response> {
  return firstOf(events).then((first) => {
    if (!first.ok) {
      if (!(first.err instanceof A2AError)) throw first.err;
      return errorResponse(call.headers, first.err);
    }
    const activated = call.context.activatedExtensions ?? [];
    if (activated.length) call.headers.set(HTTP_EXTENSION_HEADER, activated.join(", "));
    return sseResponse(events, first.first, call.headers, {
      drain,
      toJson: (event) => StreamResponse.toJSON(event),
      errorBody: (err) => toRestErrorBody(err, restStatusFor(err)),
      signal: call.req.signal,
      onDetach: () => call.left.abort(),
    });
  });
}

const TASK = "([^/:]+)";
/** SubscribeToTask: the binding takes it as a GET or a POST. */
const subscribe: Route = async (call, m) =>
  stream(
    call,
    await withSubscriptionSlot(call.caller, async () => call.handler.resubscribe({ tenant: "", id: m[1] }, call.context)),
    false,
  );

const ROUTES: [method: string, path: RegExp, route: Route][] = [
  [
    "POST",
    /^\/message:send$/,
    async (call) => {
      const result = await call.handler.sendMessage(sendRequest(await bodyOf(call)), call.context);
      const payload =
        "messageId" in result ? { $case: "message" as const, value: result as Message } : { $case: "task" as const, value: result as Task };
      return json(call, 200, SendMessageResponse.toJSON({ payload }));
    },
  ],
  [
    "POST",
    /^\/message:stream$/,
    async (call) => stream(call, call.handler.sendMessageStream(sendRequest(await bodyOf(call)), call.context), true),
  ],
  [
    "GET",
    /^\/tasks$/,
    async (call) => {
      const q = call.url.searchParams;
      const status = q.get("status");
      const params: ListTasksRequest = {
        tenant: "",
        contextId: q.get("contextId") ?? "",
        status: status ? taskStateFromJSON(/^\d+$/.test(status) ? Number(status) : status) : TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: integer(q.get("pageSize"), "pageSize", 1, 100),
        pageToken: q.get("pageToken") ?? "",
        historyLength: integer(q.get("historyLength"), "historyLength", 0, 1_000_000),
        statusTimestampAfter: q.get("statusTimestampAfter") || undefined,
        includeArtifacts: q.get("includeArtifacts") === "true",
      };
      if (status && params.status === TaskState.UNRECOGNIZED) throw new RequestMalformedError(`Invalid status filter: ${status}`);
      return json(call, 200, ListTasksResponse.toJSON(await call.handler.listTasks(params, call.context)));
    },
  ],
  [
    "GET",
    new RegExp(`^/tasks/${TASK}$`),
    async (call, m) => {
      const historyLength = integer(call.url.searchParams.get("historyLength"), "historyLength", 0, 1_000_000);
      return json(call, 200, Task.toJSON(await call.handler.getTask({ tenant: "", id: m[1], historyLength }, call.context)));
    },
  ],
  [
    "POST",
    new RegExp(`^/tasks/${TASK}:cancel$`),
    async (call, m) => json(call, 200, Task.toJSON(await call.handler.cancelTask({ tenant: "", id: m[1], metadata: {} }, call.context))),
  ],
  ["GET", new RegExp(`^/tasks/${TASK}:subscribe$`), subscribe],
  ["POST", new RegExp(`^/tasks/${TASK}:subscribe$`), subscribe],
  [
    "POST",
    new RegExp(`^/tasks/${TASK}/pushNotificationConfigs$`),
    async (call, m) => {
      const config = TaskPushNotificationConfig.fromJSON({ ...(await bodyOf(call)), taskId: m[1] });
      return json(call, 201, TaskPushNotificationConfig.toJSON(await call.handler.createTaskPushNotificationConfig(config, call.context)));
    },
  ],
  [
    "GET",
    new RegExp(`^/tasks/${TASK}/pushNotificationConfigs$`),
    async (call, m) => {
      const list = await call.handler.listTaskPushNotificationConfigs(
        { tenant: "", taskId: m[1], pageSize: 0, pageToken: "" },
        call.context,
      );
      return json(call, 200, ListTaskPushNotificationConfigsResponse.toJSON(list));
    },
  ],
  [
    "GET",
    new RegExp(`^/tasks/${TASK}/pushNotificationConfigs/([^/]+)$`),
    async (call, m) => {
      const config = await call.handler.getTaskPushNotificationConfig({ tenant: "", taskId: m[1], id: m[2] }, call.context);
      return json(call, 200, TaskPushNotificationConfig.toJSON(config));
    },
  ],
  [
    "DELETE",
    new RegExp(`^/tasks/${TASK}/pushNotificationConfigs/([^/]+)$`),
    async (call, m) => {
      await call.handler.deleteTaskPushNotificationConfig({ tenant: "", taskId: m[1], id: m[2] }, call.context);
      return json(call, 204);
    },
  ],
  [
    "GET",
    /^\/extendedAgentCard$/,
    async (call) => {
      await call.handler.getAuthenticatedExtendedAgentCard({ tenant: "" }, call.context);
      throw new UnsupportedOperationError("This agent has no extended agent card.");
    },
  ],
];

async function answerRest(req: Request, principal: Caller, merchantId: string, headers: Headers): Promise<Response> {
  const merchant = await findAgentMerchant(merchantId);
  if (!merchant) throw new NotFoundError("merchant agent", merchantId);
  const url = new URL(req.url);
  const prefix = `/a2a/${merchantId}`;
  const rest = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
  const path = rest
    .split("/")
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join("/");
  const extensionHeader = req.headers.get(HTTP_EXTENSION_HEADER) ?? undefined;
  if (asksForAp2(extensionHeader) && !allows(principal.permissions, AP2_PERMISSION)) throw new PermissionDeniedError(AP2_PERMISSION);
  const card = buildAgentCard(merchant);
  const context = new ServerCallContext({
    user: new Buyer(principal.merchantId),
    requestedVersion: req.headers.get("a2a-version")?.trim() || undefined,
    requestedExtensions: Extensions.parseServiceParameter(extensionHeader),
  });
  const scope = { merchantId: merchant.id, livemode: principal.livemode };
  const left = new AbortController();
  const handler = new MerchantRequestHandler(card, merchant, scope, left.signal);
  const call: Call = { req, caller: principal, url, handler, context, headers, left };
  const candidates = ROUTES.filter(([, pattern]) => pattern.test(path));
  const found = candidates.find(([method]) => method === req.method);
  try {
    if (!found) {
      if (candidates.length) headers.set("Allow", [...new Set(candidates.map(([method]) => method))].join(", "));
      return json(
        call,
        candidates.length ? 405 : 404,
        restError(candidates.length ? 405 : 404, `No A2A HTTP+JSON operation is ${req.method} ${path}.`).body,
      );
    }
    validateVersion(context.requestedVersion, card, "HTTP+JSON");
    return await found[2](call, found[1].exec(path)!);
  } catch (err) {
    if (!(err instanceof A2AError)) throw err; // ours (a body too large, the database): the pipeline's answer
    return errorResponse(headers, err);
  }
}

/** GET routes of the binding: a2a:read. */
export const serveAgentRestRead = pipeline(
  BUYER,
  { rawInput: true, transaction: false, permission: A2A_READ_PERMISSION },
  ({ req, caller, params, headers }) => answerRest(req, caller, params.merchantId, headers),
);

/** POST and DELETE routes of the binding: a2a:write. */
export const serveAgentRestWrite = pipeline(
  BUYER,
  { rawInput: true, transaction: false, permission: A2A_PERMISSION },
  ({ req, caller, params, headers }) => answerRest(req, caller, params.merchantId, headers),
);
