// What an x402 settlement answers when it fails by no fault of the payment (docs/x402.md "Errors"): the rail
// unavailable or its circuit open, no rail for the mode, the database gone. Never the service's /v1 error
// contract, which no x402 client reads: the facilitator answers its settle response
// `{ success: false, errorReason, errorMessage, transaction: "", network, payer? }` with the error's status, and a
// hosted resource answers 402 with the reason in PAYMENT-REQUIRED and that settle response in PAYMENT-RESPONSE
// (x402 v2 HTTP transport). The settlement's transaction rolled back first: nothing was charged, the same
// payment may be sent again (Retry-After when waiting helps).
import { env } from "../env";
import { toErrorResult, type ErrorBody } from "../http/errors";

/** The x402 reason of a settlement that failed on our side (the specification's `unexpected_settle_error`). */
export const UNEXPECTED_SETTLE_ERROR = "unexpected_settle_error";

/** An error thrown while settling a verified payment, with what the x402 answer names. */
export class SettlementFailed extends Error {
  constructor(
    readonly cause: unknown,
    readonly network: string,
    readonly payer: string,
  ) {
    super("x402 settlement failed");
  }
}

export interface SettleFailure {
  /** The status the error contract gives the error (502, 503, 500, ...). */
  status: number;
  message: string;
  /** Seconds worth waiting before sending the payment again (a 503: the circuit's cool-down), else null. */
  retryAfterSeconds: number | null;
}

/** The error as the error contract maps it (status, message; unknown errors logged, never leaked). */
export function settleFailureOf(err: unknown, requestId: string): SettleFailure {
  const result = toErrorResult(err, requestId);
  return {
    status: result.status,
    message: (result.body as ErrorBody).error.message,
    retryAfterSeconds: result.status === 503 ? Math.max(1, Math.ceil(env.CIRCUIT_COOLDOWN_MS / 1000)) : null,
  };
}

/** The facilitator's settle response of a failure (x402 v2 SettleResponse). */
export function failedSettleResponse(errorReason: string, errorMessage: string, network: string, payer?: string) {
  return { success: false, errorReason, errorMessage, transaction: "", network, ...(payer ? { payer } : {}) };
}
