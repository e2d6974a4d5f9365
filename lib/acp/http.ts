// The /acp routes' wrapper (docs/acp.md "Headers, errors, idempotency"). It is the service's api() pipeline
// (auth -> rate limit -> body -> zod -> idempotency -> handler in one transaction) with ACP's edges around it:
//  - `API-Version` required and one of SUPPORTED_API_VERSIONS (else 400 with `supported_versions`);
//  - `Idempotency-Key` required on every POST (400 idempotency_key_required), scoped to the endpoint path
//    (the same key on two paths is two requests), replayed with `Idempotent-Replayed: true`; a reused key with
//    another body is 409 on the checkout API and 422 on delegate_payment, a key still in flight 409
//    idempotency_in_flight with Retry-After (ACP checkout RFC section 6, delegate-payment RFC section 5);
//  - `Request-Id` and `Idempotency-Key` echoed;
//  - every error as ACP's flat object `{ type, code, message, param? }` (param an RFC 9535 JSONPath); a restricted
//    key without the route's acp permission is 403 `{ type: "invalid_request", code: "permission_denied" }`.
// Handlers throw domain errors as everywhere else; `acpError()` lets one name its exact ACP type, code and param.
import { createHash } from "node:crypto";
import type { z } from "zod";
import { DomainError, type ErrorCode } from "../errors";
import { api, type HandlerContext } from "../http/api";
import type { Permission } from "../merchants/permissions";
import { readBodyText } from "../http/read-body";
import { SUPPORTED_API_VERSIONS, type AcpError } from "./schemas";

const BODY_LIMIT_BYTES = 64 * 1024;
/** The caller's own Idempotency-Key, as the handler sees it (the pipeline gets the path-scoped one). */
const ORIGINAL_KEY_HEADER = "x-acp-idempotency-key";

export function idempotencyKeyOf(req: Request): string {
  return req.headers.get(ORIGINAL_KEY_HEADER) ?? "";
}

export type AcpApi = "checkout" | "delegate_payment";

/** Where an ACP error's exact fields travel inside a domain error (and its stored idempotent copy). */
interface AcpDetails {
  acp: { type: AcpError["type"] | "rate_limit_exceeded"; code: string; param?: string; status?: number };
}

/** A domain error that answers as the given ACP flat error (status: the code's, or `status`). */
export function acpError(code: ErrorCode, message: string, acp: AcpDetails["acp"]): DomainError {
  return new DomainError(code, message, { acp });
}

/** `items.0.id` -> `$.items[0].id` (RFC 9535 JSONPath). */
export function jsonPath(path: string): string {
  if (!path) return "$";
  return (
    "$" +
    path
      .split(".")
      .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
      .join("")
  );
}

type FlatBody = { type: string; code: string; message: string; param?: string; supported_versions?: string[] };

function flat(type: string, code: string, message: string, param?: string): FlatBody {
  return param ? { type, code, message, param } : { type, code, message };
}

function reply(status: number, body: unknown, headers: Headers): Response {
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify(body), { status, headers });
}

interface V1ErrorBody {
  error: { code: ErrorCode; message: string; details?: Record<string, unknown> };
}

/** The api() pipeline's error (service contract shape) as ACP's flat error, with its status. */
function translate(status: number, body: V1ErrorBody, kind: AcpApi, headers: Headers): { status: number; body: FlatBody } {
  const { code, message, details = {} } = body.error;
  const acp = (details as Partial<AcpDetails>).acp;
  if (acp) return { status: acp.status ?? status, body: flat(acp.type, acp.code, message, acp.param) };
  const invalid = kind === "delegate_payment" ? "invalid_card" : "invalid";
  switch (code) {
    case "VALIDATION_ERROR": {
      const fields = (details.fields as { path: string; message: string }[] | undefined) ?? [];
      if (fields[0]?.path === "Idempotency-Key" && /different request/.test(fields[0].message)) {
        return {
          status: kind === "delegate_payment" ? 422 : 409,
          body: flat("invalid_request", "idempotency_conflict", "Idempotency-Key has already been used with a different request body"),
        };
      }
      return { status: 400, body: flat("invalid_request", invalid, message, fields[0] ? jsonPath(fields[0].path) : undefined) };
    }
    case "CONFLICT":
      if (/still being processed/.test(message)) {
        headers.set("Retry-After", "1");
        return {
          status: 409,
          body: flat("invalid_request", "idempotency_in_flight", "A request with this Idempotency-Key is currently being processed"),
        };
      }
      headers.set("Retry-After", "1");
      return { status, body: flat("invalid_request", "conflict", message) };
    case "RATE_LIMITED":
      return kind === "delegate_payment"
        ? { status, body: flat("rate_limit_exceeded", "too_many_requests", message) }
        : { status, body: flat("invalid_request", "rate_limit_exceeded", message) };
    case "UNAUTHORIZED":
      return { status, body: flat("invalid_request", "unauthorized", message) };
    case "NOT_FOUND":
      return { status, body: flat("invalid_request", "not_found", message) };
    case "PAYMENT_DECLINED":
      return { status, body: flat("processing_error", "payment_declined", message) };
    case "FORBIDDEN":
      // A restricted key without the acp permission: 403 with its own code (the resource and level in the message).
      if (details.reason === "permission_denied") return { status, body: flat("invalid_request", "permission_denied", message) };
      return { status, body: flat("invalid_request", invalid, message) };
    case "GONE":
    case "SANCTIONS_BLOCKED":
      return { status, body: flat("invalid_request", invalid, message) };
    case "CIRCUIT_OPEN":
      return { status: 503, body: flat("service_unavailable", "service_unavailable", message) };
    default:
      return { status: status >= 500 ? status : 400, body: flat("processing_error", "processing_error", message) };
  }
}

interface AcpOptions<B extends z.ZodType | undefined> {
  kind: AcpApi;
  /** What a restricted key must allow (["acp", "read" | "write"]; docs/restricted-keys.md). */
  permission: Permission;
  body?: B;
  /** Status of a success (default 200). */
  status?: number;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export function acpRoute<B extends z.ZodType | undefined = undefined>(
  options: AcpOptions<B>,
  handler: (ctx: HandlerContext<Infer<B>, undefined, "secret">) => unknown,
) {
  const inner = api<B, undefined, "secret">(
    { auth: "secret", permission: options.permission, body: options.body, status: options.status, bodyLimitBytes: BODY_LIMIT_BYTES },
    handler,
  );
  return async (req: Request, nextContext?: { params: Promise<Record<string, string>> }): Promise<Response> => {
    const headers = new Headers();
    const requestId = req.headers.get("request-id");
    const idempotencyKey = req.headers.get("idempotency-key");
    if (requestId !== null && /^[\x20-\x7E]{1,255}$/.test(requestId)) headers.set("Request-Id", requestId);
    if (idempotencyKey !== null && /^[\x20-\x7E]{1,255}$/.test(idempotencyKey)) headers.set("Idempotency-Key", idempotencyKey);

    const version = req.headers.get("api-version");
    if (version === null || !(SUPPORTED_API_VERSIONS as readonly string[]).includes(version.trim())) {
      const missing = version === null;
      return reply(
        400,
        {
          ...flat(
            "invalid_request",
            missing ? "missing_api_version" : "unsupported_api_version",
            missing ? "The API-Version header is required." : `API-Version ${version.slice(0, 40)} is not supported.`,
          ),
          supported_versions: [...SUPPORTED_API_VERSIONS],
        },
        headers,
      );
    }

    let forward = req;
    if (req.method === "POST") {
      if (idempotencyKey === null || !/^[\x20-\x7E]{1,255}$/.test(idempotencyKey)) {
        return reply(
          400,
          flat(
            "invalid_request",
            "idempotency_key_required",
            "Idempotency-Key header is required on all POST requests (1 to 255 printable ASCII characters)",
          ),
          headers,
        );
      }
      // Keys are scoped to the endpoint path: the same key on another path is another request.
      const scoped = new Headers(req.headers);
      scoped.set(ORIGINAL_KEY_HEADER, idempotencyKey);
      scoped.set(
        "idempotency-key",
        `acp:${createHash("sha256")
          .update(`${new URL(req.url).pathname}\n${idempotencyKey}`)
          .digest("hex")}`,
      );
      let text: string;
      try {
        text = await readBodyText(req, BODY_LIMIT_BYTES);
      } catch (err) {
        return reply(
          400,
          flat(
            "invalid_request",
            options.kind === "delegate_payment" ? "invalid_card" : "invalid",
            err instanceof Error ? err.message : "Unreadable body.",
          ),
          headers,
        );
      }
      forward = new Request(req.url, { method: req.method, headers: scoped, body: text });
    }

    const res = await inner(forward, nextContext);
    for (const [name, value] of res.headers)
      if (name.toLowerCase() !== "request-id" || !headers.has("Request-Id")) headers.set(name, value);
    const text = await res.text();
    if (res.status < 400) return new Response(text, { status: res.status, headers });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    if (!body || typeof body !== "object" || !("error" in body)) return new Response(text, { status: res.status, headers }); // already ACP's shape
    const translated = translate(res.status, body as V1ErrorBody, options.kind, headers);
    return reply(translated.status, translated.body, headers);
  };
}

/** Any other method on an /acp route: 405 as ACP's flat error, with Allow. */
export function acpMethodNotAllowed(allowed: string[]) {
  return (req: Request) =>
    new Response(
      JSON.stringify(flat("invalid_request", "method_not_allowed", `${req.method} is not allowed here; use ${allowed.join(" or ")}.`)),
      {
        status: 405,
        headers: { "Content-Type": "application/json", Allow: allowed.join(", ") },
      },
    );
}
