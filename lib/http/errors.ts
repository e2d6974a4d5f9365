// The one table from error code to HTTP status (docs/api-reference.md "Errors"), and error responses in the contract's shape.
import { z } from "zod";
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "../db-availability";
import { DatabaseUnavailableError, DomainError, type ErrorCode } from "../errors";

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  PAYMENT_DECLINED: 402,
  FORBIDDEN: 403,
  SANCTIONS_BLOCKED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  GONE: 410,
  RATE_LIMITED: 429,
  INVARIANT_VIOLATION: 500,
  UPSTREAM_ERROR: 502,
  CIRCUIT_OPEN: 503,
};

/** Every error answer's body (the OpenAPI document's `ErrorBody`); its codes are the table's. */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(STATUS_BY_CODE) as [ErrorCode, ...ErrorCode[]]).meta({ id: "ErrorCode" }),
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
    }),
  })
  .meta({ id: "ErrorBody" });

export type ErrorBody = z.output<typeof ErrorBodySchema>;

export interface HttpResult {
  status: number;
  body: unknown;
  /** A protocol's own media type of the body (MPP's application/problem+json); default application/json. */
  contentType?: string;
}

export function errorResult(code: ErrorCode, message: string, details: Record<string, unknown> = {}): HttpResult {
  const body: ErrorBody = { error: { code, message, details } };
  return { status: STATUS_BY_CODE[code], body };
}

/** The database could not be reached (a connection refused, cut or timed out, or its breaker open): a DatabaseUnavailableError. */
export function asDomainError(err: unknown): unknown {
  return isDatabaseUnavailable(err) ? new DatabaseUnavailableError(DATABASE_RETRY_AFTER_SECONDS) : err;
}

/** Seconds for the Retry-After header of an error's answer: a 503 CIRCUIT_OPEN that names them (the database's). */
export function retryAfterOf(err: unknown): number | null {
  const mapped = asDomainError(err);
  if (!(mapped instanceof DomainError) || mapped.code !== "CIRCUIT_OPEN") return null;
  return typeof mapped.details.retryAfterSeconds === "number" ? mapped.details.retryAfterSeconds : null;
}

/** Maps anything thrown to the error contract; unknown errors become 500 without leaking internals. */
export function toErrorResult(thrown: unknown, requestId: string): HttpResult {
  const err = asDomainError(thrown);
  if (err instanceof DomainError) return errorResult(err.code, err.message, err.details);
  console.error(`[${requestId}] unhandled error:`, err instanceof Error ? (err.stack ?? err.message) : err);
  return errorResult("INVARIANT_VIOLATION", "An internal error occurred; report it with the request id.", { requestId });
}

/** The error contract's answer to a database outage, for a route outside the pipeline (the cron tick). */
export function databaseUnavailableResponse(): Response {
  const { status, body } = toErrorResult(new DatabaseUnavailableError(DATABASE_RETRY_AFTER_SECONDS), "");
  return Response.json(body, { status, headers: { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS), "Cache-Control": "no-store" } });
}

/**
 * A JSON-RPC path's answer to a database outage (A2A, /mcp): 503 (Retry-After set by the pipeline) with a JSON-RPC
 * internal error whose data names the error contract's code and the reason.
 */
export function jsonRpcDatabaseUnavailable(): HttpResult {
  const data = { code: "CIRCUIT_OPEN", reason: DATABASE_UNAVAILABLE, retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS };
  const message = "The database is unavailable; retry after the time in the Retry-After header.";
  return { status: 503, body: { jsonrpc: "2.0", id: null, error: { code: -32603, message, data } } };
}
