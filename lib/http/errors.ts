// The one table from error code to HTTP status (docs/api-reference.md "Errors"), and error responses in the contract's shape.
import { z } from "zod";
import { DomainError, type ErrorCode } from "../errors";

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
}

export function errorResult(code: ErrorCode, message: string, details: Record<string, unknown> = {}): HttpResult {
  const body: ErrorBody = { error: { code, message, details } };
  return { status: STATUS_BY_CODE[code], body };
}

/** Maps anything thrown to the error contract; unknown errors become 500 without leaking internals. */
export function toErrorResult(err: unknown, requestId: string): HttpResult {
  if (err instanceof DomainError) return errorResult(err.code, err.message, err.details);
  console.error(`[${requestId}] unhandled error:`, err instanceof Error ? (err.stack ?? err.message) : err);
  return errorResult("INVARIANT_VIOLATION", "An internal error occurred; report it with the request id.", { requestId });
}
