// The /acp routes' composition of the request pipeline (docs/acp.md "Headers, errors, idempotency"): ACP's own
// checks, the service's API-key step (auth -> rate limit -> permission, lib/http/authenticate.ts), the request's
// signature (lib/acp/signing.ts), then the idempotency claim; and ACP's error formatter:
//  - `API-Version` required and one of SUPPORTED_API_VERSIONS (else 400 with `supported_versions`);
//  - `Idempotency-Key` required on every POST (400 idempotency_key_required), scoped to the endpoint path
//    (the same key on two paths is two requests), replayed with `Idempotent-Replayed: true`; a reused key with
//    another body is 422 on delegate_payment and on the checkout API at 2026-04-17 (409 there at earlier versions),
//    a key still in flight 409 idempotency_in_flight with Retry-After (ACP checkout RFC section 6, delegate-payment
//    RFC section 5); any other 409 carries Retry-After only when it passes by itself (a BusyError);
//  - `Request-Id` and `Idempotency-Key` echoed;
//  - every error as ACP's flat object `{ type, code, message, param? }` (param an RFC 9535 JSONPath); a restricted
//    key without the route's acp permission is 403 `{ type: "invalid_request", code: "permission_denied" }`.
// The formatter branches on each error's code and machine reason (`details.reason`), never on its message.
// Handlers throw domain errors as everywhere else; `acpError()` lets one name its exact ACP type, code and param.
import { createHash } from "node:crypto";
import type { z } from "zod";
import { BusyError, DomainError, ValidationError, type ErrorCode } from "../errors";
import type { HandlerContext } from "../http/api";
import { byApiKey } from "../http/authenticate";
import { toErrorResult, type ErrorBody, type HttpResult } from "../http/errors";
import { pipeline, type Authenticate, type Infer, type Steps } from "../http/pipeline";
import { parseJsonBody, UNREADABLE_BODY } from "../http/read-body";
import { sql } from "../db";
import { claim, IDEMPOTENCY_IN_FLIGHT, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_REUSED } from "../idempotency/claims";
import type { Permission } from "../merchants/permissions";
import type { Caller } from "../scope";
import { parseOrThrow } from "../validation/parse";
import { SUPPORTED_API_VERSIONS, type AcpError, type AcpVersion } from "./schemas";
import { signingKeysQuery, verifyRequestSignature, type SigningKeysRow } from "./signing";

const BODY_LIMIT_BYTES = 64 * 1024;

/** The caller's own Idempotency-Key (the claim is made under its path-scoped form). */
export function idempotencyKeyOf(req: Request): string {
  return req.headers.get("idempotency-key") ?? "";
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

/** `details.reason` of ACP's own refusals of a request's headers (answered with their reason as the ACP code). */
const MISSING_API_VERSION = "missing_api_version";
const UNSUPPORTED_API_VERSION = "unsupported_api_version";
const IDEMPOTENCY_KEY_REQUIRED = "idempotency_key_required";

const PRINTABLE_HEADER = /^[\x20-\x7E]{1,255}$/;

/** Request-Id and Idempotency-Key echoed, when they are printable ASCII of at most 255 characters. */
function echoHeaders(req: Request, headers: Headers): void {
  const requestId = req.headers.get("request-id");
  const idempotencyKey = req.headers.get("idempotency-key");
  if (requestId !== null && PRINTABLE_HEADER.test(requestId)) headers.set("Request-Id", requestId);
  if (idempotencyKey !== null && PRINTABLE_HEADER.test(idempotencyKey)) headers.set("Idempotency-Key", idempotencyKey);
}

/** ACP's checks of the request's headers: API-Version, and an Idempotency-Key on every POST. */
function checkAcpHeaders(req: Request): void {
  const version = req.headers.get("api-version");
  if (version === null) throw new ValidationError("The API-Version header is required.", [], { reason: MISSING_API_VERSION });
  if (!(SUPPORTED_API_VERSIONS as readonly string[]).includes(version.trim())) {
    throw new ValidationError(`API-Version ${version.slice(0, 40)} is not supported.`, [], { reason: UNSUPPORTED_API_VERSION });
  }
  const key = req.headers.get("idempotency-key");
  if (req.method === "POST" && (key === null || !IDEMPOTENCY_KEY_PATTERN.test(key))) {
    const message = "Idempotency-Key header is required on all POST requests (1 to 255 printable ASCII characters)";
    throw new ValidationError(message, [], { reason: IDEMPOTENCY_KEY_REQUIRED });
  }
}

/** Keys are scoped to the endpoint path: the same key on another path is another request. */
function pathScopedKey(req: Request, key: string): string {
  const digest = createHash("sha256")
    .update(`${new URL(req.url).pathname}\n${key}`)
    .digest("hex");
  return `acp:${digest}`;
}

/**
 * ACP's authentication step: its header checks; the API key (limit, permission) with the merchant's signing keys in
 * the same statement; the request's signature (lib/acp/signing.ts); and only then the path-scoped claim. A request
 * refused by any of them (401, 403, 429) claims and stores nothing (as Stripe: a 401 never touches idempotency), so
 * a badly signed request cannot take the Idempotency-Key of the genuine one and answer it with its 401.
 */
const byAcpKey: Authenticate<Caller> = async (req, headers, claimRequest, permission, _route, rawBody) => {
  echoHeaders(req, headers);
  checkAcpHeaders(req);
  const { caller, row } = await byApiKey(req, headers, undefined, permission, signingKeysQuery);
  verifyRequestSignature((row as SigningKeysRow).acp_signing_jwks ?? [], req, rawBody);
  if (!claimRequest) return { caller };
  const scope = { apiKeyId: caller.apiKeyId, livemode: caller.livemode, key: pathScopedKey(req, claimRequest.key) };
  const outcome = await claim(sql(), scope, claimRequest.fingerprint).catch((err: unknown) => {
    throw conflictAtVersion(err, apiVersionOf(req));
  });
  return { caller, claim: outcome };
};

/** The versions whose checkout API answers a reused key with another body 422 (2026-04-17's idempotency rules). */
const CONFLICT_IS_422: ReadonlySet<AcpVersion> = new Set(["2026-04-17"]);

/** A key reused with another body, at a version that answers it 422: as that error (earlier checkout versions: 409). */
function conflictAtVersion(err: unknown, version: AcpVersion): unknown {
  const reused = err instanceof DomainError && err.details.reason === IDEMPOTENCY_KEY_REUSED;
  if (!reused || !CONFLICT_IS_422.has(version)) return err;
  return acpError("VALIDATION_ERROR", err.message, { type: "invalid_request", code: "idempotency_conflict", status: 422 });
}

/** ACP's error formatter: the error contract's code and `details` (reason, fields, acp) as ACP's flat error. */
function acpErrorResult(kind: AcpApi) {
  return (err: unknown, requestId: string, headers: Headers): HttpResult => {
    const { status, body } = toErrorResult(err, requestId);
    const { code, message, details } = (body as ErrorBody).error;
    // Retry-After only where waiting helps: a conflict that passes by itself (another request holds the token right
    // now). Any other 409 (a token waiting for a person's approval, a completed session) has none, as on /v1.
    if (err instanceof BusyError) headers.set("Retry-After", "1");
    return translate(status, code, message, details, kind, headers);
  };
}

function translate(
  status: number,
  code: ErrorCode,
  message: string,
  details: Record<string, unknown>,
  kind: AcpApi,
  headers: Headers,
): HttpResult {
  const acp = (details as Partial<AcpDetails>).acp;
  if (acp) return { status: acp.status ?? status, body: flat(acp.type, acp.code, message, acp.param) };
  const invalid = kind === "delegate_payment" ? "invalid_card" : "invalid";
  const reason = typeof details.reason === "string" ? details.reason : undefined;
  switch (reason) {
    case MISSING_API_VERSION:
    case UNSUPPORTED_API_VERSION:
      return { status: 400, body: { ...flat("invalid_request", reason, message), supported_versions: [...SUPPORTED_API_VERSIONS] } };
    case IDEMPOTENCY_KEY_REQUIRED:
      return { status: 400, body: flat("invalid_request", reason, message) };
    case IDEMPOTENCY_KEY_REUSED:
      return {
        status: kind === "delegate_payment" ? 422 : 409,
        body: flat("invalid_request", "idempotency_conflict", "Idempotency-Key has already been used with a different request body"),
      };
    case IDEMPOTENCY_IN_FLIGHT:
      headers.set("Retry-After", "1");
      return {
        status: 409,
        body: flat("invalid_request", "idempotency_in_flight", "A request with this Idempotency-Key is currently being processed"),
      };
    case "body_too_large":
    case UNREADABLE_BODY:
      return { status: 400, body: flat("invalid_request", invalid, message) };
  }
  switch (code) {
    case "VALIDATION_ERROR": {
      const fields = (details.fields as { path: string }[] | undefined) ?? [];
      return { status: 400, body: flat("invalid_request", invalid, message, fields[0] ? jsonPath(fields[0].path) : undefined) };
    }
    case "CONFLICT":
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
      if (reason === "permission_denied") return { status, body: flat("invalid_request", "permission_denied", message) };
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

const STEPS: Record<AcpApi, Steps<Caller>> = {
  checkout: { authenticate: byAcpKey, claims: true, errorResult: acpErrorResult("checkout") },
  delegate_payment: { authenticate: byAcpKey, claims: true, errorResult: acpErrorResult("delegate_payment") },
};

/** The API-Version a request is answered in (checked by the authentication step before any handler runs). */
export function apiVersionOf(req: Request): AcpVersion {
  return (req.headers.get("api-version") ?? "").trim() as AcpVersion;
}

export type AcpContext<B> = HandlerContext<B, undefined, "secret"> & { version: AcpVersion };

export function acpRoute<B extends z.ZodType | undefined = undefined>(
  options: AcpOptions<B>,
  handler: (ctx: AcpContext<Infer<B>>) => unknown,
) {
  const { kind, ...rest } = options;
  return pipeline<Caller, B, undefined, "prisma">(STEPS[kind], { ...rest, bodyLimitBytes: BODY_LIMIT_BYTES }, ({ caller, ...ctx }) =>
    handler({ ...ctx, principal: caller, version: apiVersionOf(ctx.req) }),
  );
}

/** An /acp route whose body schema depends on the API-Version asked (`body(version)`). */
export function acpVersionedRoute<V>(
  options: Omit<AcpOptions<undefined>, "body"> & { body: (version: AcpVersion) => z.ZodType<V> },
  handler: (ctx: AcpContext<V>) => unknown,
) {
  const { body, ...rest } = options;
  return acpRoute(rest, (ctx) => handler({ ...ctx, body: parseOrThrow(body(ctx.version), parseJsonBody(ctx.rawBody ?? "")) }));
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
