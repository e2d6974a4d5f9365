// Typed domain errors. Domain code throws these; lib/http/errors.ts maps each code to its HTTP status.

export type ErrorCode =
  | "VALIDATION_ERROR"
  | "UNAUTHORIZED"
  | "PAYMENT_DECLINED"
  | "FORBIDDEN"
  | "SANCTIONS_BLOCKED"
  | "NOT_FOUND"
  | "CONFLICT"
  | "GONE"
  | "RATE_LIMITED"
  | "INVARIANT_VIOLATION"
  | "UPSTREAM_ERROR"
  | "CIRCUIT_OPEN";

export interface FieldError {
  path: string;
  message: string;
}

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  /**
   * True when the state written before the error must still commit (for example a declined charge
   * marks its PaymentIntent failed); the error is then also the request's stored idempotent result.
   */
  readonly commitsState: boolean;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}, commitsState = false) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
    this.commitsState = commitsState;
  }
}

export class ValidationError extends DomainError {
  /** `details` adds machine-readable facts, such as a `reason` the protocol adapters' error formatters branch on. */
  constructor(message: string, fields: FieldError[] = [], details: Record<string, unknown> = {}) {
    super("VALIDATION_ERROR", message, { ...details, fields });
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = "Missing or invalid API key.") {
    super("UNAUTHORIZED", message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("FORBIDDEN", message, details);
  }
}

export class NotFoundError extends DomainError {
  constructor(resource: string, id?: string) {
    super("NOT_FOUND", id ? `No such ${resource}: '${id}'` : `No such ${resource}.`, id ? { resource, id } : { resource });
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super("CONFLICT", message, details);
  }
}

/**
 * A conflict that passes by itself: another request holds the object at this moment (e.g. a shared payment
 * token being redeemed). 409; the request's Idempotency-Key is freed rather than storing the 409, so the
 * same key retried shortly gets the real answer.
 */
export class BusyError extends ConflictError {}

export class GoneError extends DomainError {
  constructor(message: string) {
    super("GONE", message);
  }
}

export class RateLimitedError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super("RATE_LIMITED", "Too many requests; retry after the time in the Retry-After header.", { retryAfterSeconds });
  }
}

export class PaymentDeclinedError extends DomainError {
  constructor(reason: string, message = "The payment was declined.", details: Record<string, unknown> = {}) {
    super("PAYMENT_DECLINED", message, { reason, ...details }, true);
  }
}

export class SanctionsBlockedError extends DomainError {
  constructor(message = "This payment is blocked by sanctions screening.") {
    super("SANCTIONS_BLOCKED", message);
  }
}

export class UpstreamError extends DomainError {
  constructor(message: string, commitsState = false) {
    super("UPSTREAM_ERROR", message, {}, commitsState);
  }
}

export class CircuitOpenError extends DomainError {
  constructor(
    message = "The payment rail is failing; its circuit breaker is open. Retry after a short back-off.",
    details: Record<string, unknown> = {},
  ) {
    super("CIRCUIT_OPEN", message, details);
  }
}

/**
 * A live on-chain payment sent but not confirmed yet (docs/x402.md "Going live"): 503 with Retry-After, never a
 * 402 (which would make a client sign a second payment); the same payment sent again later gets its outcome.
 */
export class SettlementPendingError extends CircuitOpenError {
  constructor(paymentIntentId: string | null, transaction: string, retryAfterSeconds = 2) {
    super(
      `The payment${paymentIntentId ? ` ${paymentIntentId}` : ""} is being settled on chain${transaction ? ` (transaction ${transaction})` : ""}; send the same payment again after the Retry-After time for the content. It is never charged twice.`,
      { reason: "settlement_pending", paymentIntentId, transaction, retryAfterSeconds },
    );
  }
}

/**
 * A paid request sent again while its first answer is still being made (docs/x402.md "Lost answers"): 503 with
 * Retry-After, never a 402 or a second charge; the same payment sent again later gets the first answer.
 */
export class AnswerPendingError extends CircuitOpenError {
  /** `paymentIntentId` null: another request is taking this very payment right now. */
  constructor(paymentIntentId: string | null, retryAfterSeconds = 2) {
    super(
      `The payment${paymentIntentId ? ` ${paymentIntentId}` : ""} is being taken and its answer is still being made; send the same payment again after the Retry-After time for it. It is never charged twice.`,
      { reason: "answer_pending", paymentIntentId, retryAfterSeconds },
    );
  }
}

/** The database cannot be reached (lib/db-availability.ts): 503 CIRCUIT_OPEN, retry after `retryAfterSeconds`. */
export class DatabaseUnavailableError extends CircuitOpenError {
  constructor(readonly retryAfterSeconds = 1) {
    super("The database is unavailable; retry after the time in the Retry-After header.", {
      reason: "database_unavailable",
      retryAfterSeconds,
    });
  }
}

export class InvariantViolation extends DomainError {
  constructor(message: string) {
    super("INVARIANT_VIOLATION", message);
  }
}

/** What a unit of work inside a transaction came to: its value, or an error whose state must still commit. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: DomainError };

/**
 * Runs work inside a transaction and returns (instead of throwing) an error whose state must commit, such as a
 * decline that marked its PaymentIntent failed: the transaction then commits, and the caller answers with the error.
 */
export async function keepCommittedState<T>(work: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (err) {
    if (err instanceof DomainError && err.commitsState) return { ok: false, error: err };
    throw err;
  }
}
