// The wrapper of the facilitator's POST /x402/verify and /x402/settle: the request pipeline with the merchant's
// API key (limited per key; no Idempotency-Key record: an authorization's nonce makes a retry safe), answering
// every error of the request itself in the facilitator's own shape (x402 v2): a body that is no JSON at all is
// `invalid_payload` (400), a settlement that threw is `unexpected_settle_error` with the error's status
// (lib/x402/settle-failure.ts). The key's own refusals (401, 403 permission_denied, 429) stay in the error
// contract: they are about the merchant's credential, as on every path authenticated with it.
import { z } from "zod";
import { DomainError } from "../errors";
import type { Permission } from "../merchants/permissions";
import { byApiKey } from "../http/authenticate";
import { toErrorResult, type HttpResult } from "../http/errors";
import { pipeline, type PipelineContext, type Steps } from "../http/pipeline";
import type { Caller } from "../scope";
import { failedSettleResponse, SettlementFailed, settleFailureOf, UNEXPECTED_SETTLE_ERROR } from "./settle-failure";

type Operation = "verify" | "settle";

const CREDENTIAL_CODES = new Set(["UNAUTHORIZED", "FORBIDDEN", "RATE_LIMITED"]);

function facilitatorErrorResult(operation: Operation) {
  return (err: unknown, requestId: string, headers: Headers): HttpResult => {
    if (err instanceof DomainError && CREDENTIAL_CODES.has(err.code)) return toErrorResult(err, requestId);
    const failed = err instanceof SettlementFailed ? err : null;
    const failure = settleFailureOf(failed ? failed.cause : err, requestId);
    if (failure.retryAfterSeconds !== null) headers.set("Retry-After", String(failure.retryAfterSeconds));
    const reason = err instanceof DomainError && err.code === "VALIDATION_ERROR" ? "invalid_payload" : UNEXPECTED_SETTLE_ERROR;
    if (operation === "verify") {
      const invalidReason = reason === UNEXPECTED_SETTLE_ERROR ? "unexpected_verify_error" : reason;
      return { status: failure.status, body: { isValid: false, invalidReason, invalidMessage: failure.message } };
    }
    return { status: failure.status, body: failedSettleResponse(reason, failure.message, failed?.network ?? "", failed?.payer) };
  };
}

/** A facilitator endpoint: the body is the handler's to read (any JSON), its answers and errors are x402's. */
export function facilitatorRoute(
  operation: Operation,
  options: { permission: Permission; transaction?: false },
  handler: (ctx: PipelineContext<Caller, unknown, unknown>) => unknown,
) {
  const steps: Steps<Caller> = { authenticate: byApiKey, claims: false, errorResult: facilitatorErrorResult(operation) };
  const input = { body: z.unknown(), idempotent: false as const, bodyLimitBytes: 64 * 1024 };
  return pipeline(steps, { permission: options.permission, transaction: options.transaction, ...input }, handler);
}
