// ServiceError: the one error class of the SDK (docs/api-reference.md "Errors", "Client SDK behavior").
// Clients branch on `code` (and `status`), never on `message`.
import type { components } from "./generated/openapi";

/** Codes of a failure that got no HTTP response at all (status 0). */
export type TransportErrorCode = "timeout" | "aborted" | "network_error";

/**
 * Error codes of the service (the OpenAPI document's ErrorCode; docs/api-reference.md "Errors") plus the
 * SDK's own. Unknown server codes still pass through.
 */
export type ServiceErrorCode =
  components["schemas"]["ErrorCode"] | TransportErrorCode | "signature_verification_failed" | "invalid_response" | (string & {});

export interface ServiceErrorInit {
  code: ServiceErrorCode;
  status: number;
  message: string;
  details?: Record<string, unknown>;
  /** Seconds the server asked to wait (Retry-After), when it said so. */
  retryAfterSeconds?: number;
  /** The server's Request-Id header, for support. */
  requestId?: string;
  /** True when the response was a stored idempotent replay (`Idempotent-Replayed: true`). */
  idempotentReplayed?: boolean;
  cause?: unknown;
}

export class ServiceError extends Error {
  readonly code: ServiceErrorCode;
  /** HTTP status; 0 when no response was received (transport failure). */
  readonly status: number;
  readonly details: Record<string, unknown>;
  readonly retryAfterSeconds?: number;
  readonly requestId?: string;
  readonly idempotentReplayed?: boolean;

  constructor(init: ServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "ServiceError";
    this.code = init.code;
    this.status = init.status;
    this.details = init.details ?? {};
    if (init.retryAfterSeconds !== undefined) this.retryAfterSeconds = init.retryAfterSeconds;
    if (init.requestId !== undefined) this.requestId = init.requestId;
    if (init.idempotentReplayed) this.idempotentReplayed = true;
  }

  /**
   * True for any value shaped like a ServiceError: an Error-like object with a string `code`, an integer
   * `status` and a string `message`. Prefer it to `instanceof`, which fails when two copies of the SDK
   * are loaded (each has its own class).
   */
  static is(value: unknown): value is ServiceError {
    if (typeof value !== "object" || value === null) return false;
    const v = value as Record<string, unknown>;
    return (
      v.name === "ServiceError" &&
      typeof v.code === "string" &&
      typeof v.status === "number" &&
      Number.isInteger(v.status) &&
      typeof v.message === "string"
    );
  }

  /** True when the failure produced no HTTP response (timeout, abort, network). */
  get isTransportError(): boolean {
    return this.status === 0;
  }

  toJSON(): { name: string; code: string; status: number; message: string; details: Record<string, unknown> } {
    return { name: this.name, code: this.code, status: this.status, message: this.message, details: this.details };
  }
}

/** Builds a ServiceError from a non-2xx response body in the contract's `{ error: { code, message, details } }` shape. */
export function errorFromResponse(status: number, body: unknown, headers?: Headers): ServiceError {
  const error = (typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined) as
    { code?: unknown; message?: unknown; details?: unknown } | undefined;
  const code = typeof error?.code === "string" ? error.code : fallbackCode(status);
  const message = typeof error?.message === "string" ? error.message : `The service answered HTTP ${status}.`;
  const details = typeof error?.details === "object" && error.details !== null ? (error.details as Record<string, unknown>) : {};
  const retryAfterSeconds = headers ? parseRetryAfter(headers.get("retry-after")) : undefined;
  const requestId = headers?.get("request-id") ?? undefined;
  const idempotentReplayed = headers?.get("idempotent-replayed") === "true";
  return new ServiceError({ code, status, message, details, retryAfterSeconds, requestId, idempotentReplayed });
}

function fallbackCode(status: number): string {
  const byStatus: Record<number, string> = {
    400: "VALIDATION_ERROR",
    401: "UNAUTHORIZED",
    402: "PAYMENT_DECLINED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    409: "CONFLICT",
    410: "GONE",
    429: "RATE_LIMITED",
    500: "INVARIANT_VIOLATION",
    502: "UPSTREAM_ERROR",
    503: "CIRCUIT_OPEN",
  };
  return byStatus[status] ?? "invalid_response";
}

/** Retry-After as seconds: a number of seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}
