// Answers of the hosted MPP resources (GET /mpp/r/:id) outside success: RFC 9457 problem bodies
// (application/problem+json) with the Payment scheme's problem types, and, for every 402, a fresh challenge in
// WWW-Authenticate whose id the body names (challengeId), so the client can pay again at once.
import { Challenge } from "mppx";
import type { HttpResult } from "../http/errors";

/** What a browser client may read of a /mpp answer. */
export const EXPOSED_HEADERS = "WWW-Authenticate, Payment-Receipt, Retry-After, Payment-Approval-Request";

export const PROBLEM_BASE = "https://paymentauth.org/problems/";

export type ProblemKind =
  | "payment_required"
  | "malformed_credential"
  | "invalid_challenge"
  | "payment_expired"
  | "verification_failed"
  | "payment_insufficient"
  | "invalid_payload"
  | "method_unsupported"
  | "bad_request"
  | "not_found"
  | "rate_limited"
  | "method_not_allowed"
  | "conflict"
  | "bad_gateway"
  | "service_unavailable"
  | "internal";

const KINDS: Record<ProblemKind, { status: number; title: string; type: string }> = {
  payment_required: { status: 402, title: "Payment Required", type: `${PROBLEM_BASE}payment-required` },
  malformed_credential: { status: 402, title: "Malformed Credential", type: `${PROBLEM_BASE}malformed-credential` },
  invalid_challenge: { status: 402, title: "Invalid Challenge", type: `${PROBLEM_BASE}invalid-challenge` },
  payment_expired: { status: 402, title: "Payment Expired", type: `${PROBLEM_BASE}payment-expired` },
  verification_failed: { status: 402, title: "Verification Failed", type: `${PROBLEM_BASE}verification-failed` },
  payment_insufficient: { status: 402, title: "Payment Insufficient", type: `${PROBLEM_BASE}payment-insufficient` },
  invalid_payload: { status: 402, title: "Invalid Payload", type: `${PROBLEM_BASE}invalid-payload` },
  // An unsupported method or intent still gets the challenge it can answer (402), as mppx's own servers do.
  method_unsupported: { status: 402, title: "Method Unsupported", type: `${PROBLEM_BASE}method-unsupported` },
  bad_request: { status: 400, title: "Bad Request", type: `${PROBLEM_BASE}bad-request` },
  not_found: { status: 404, title: "Not Found", type: "about:blank" },
  rate_limited: { status: 429, title: "Too Many Requests", type: "about:blank" },
  method_not_allowed: { status: 405, title: "Method Not Allowed", type: "about:blank" },
  // A payment taken already whose answer is not kept (replay_not_stored): never a 402 (that would invite paying again).
  conflict: { status: 409, title: "Conflict", type: "about:blank" },
  bad_gateway: { status: 502, title: "Bad Gateway", type: "about:blank" },
  service_unavailable: { status: 503, title: "Service Unavailable", type: "about:blank" },
  internal: { status: 500, title: "Internal Payment Error", type: `${PROBLEM_BASE}internal-payment-error` },
};

export interface ProblemOptions {
  detail: string;
  /** The fresh challenge of a 402. */
  challenge?: Challenge.Challenge;
  /** More challenges the 402 offers after it (other methods: evm on each payable network), in the same header. */
  alternatives?: Challenge.Challenge[];
  /** Extension members (reason, paymentIntentId, ...). */
  extra?: Record<string, unknown>;
  headers?: Headers;
  status?: number;
}

/** Whether a problem of this kind is a 402 (it then carries a fresh challenge). */
export function isPaymentProblem(kind: ProblemKind): boolean {
  return KINDS[kind].status === 402;
}

/** The problem as the pipeline answers it (its error shape); `headers` gets the challenge. */
export function problemResult(kind: ProblemKind, options: ProblemOptions, headers: Headers): HttpResult {
  const { status, title, type } = KINDS[kind];
  // Several challenges share one WWW-Authenticate value (RFC 9110 11.6.1), the service method's first.
  if (options.challenge)
    headers.set("WWW-Authenticate", [options.challenge, ...(options.alternatives ?? [])].map(Challenge.serialize).join(", "));
  const body = {
    type,
    title,
    status: options.status ?? status,
    detail: options.detail,
    ...options.extra,
    ...(options.challenge ? { challengeId: options.challenge.id } : {}),
  };
  return { status: options.status ?? status, body, contentType: "application/problem+json" };
}

export function problemResponse(kind: ProblemKind, options: ProblemOptions): Response {
  const headers = new Headers(options.headers);
  headers.set("Cache-Control", "no-store");
  headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  const { status, body, contentType } = problemResult(kind, options, headers);
  headers.set("Content-Type", contentType!);
  return new Response(JSON.stringify(body), { status, headers });
}

/** 405 for a method a /mpp path does not take (its body is never read). */
export function methodNotAllowed(allowed: string[]): Response {
  return problemResponse("method_not_allowed", {
    detail: `This path takes ${allowed.join(" and ")} only.`,
    headers: new Headers({ Allow: allowed.join(", ") }),
  });
}
