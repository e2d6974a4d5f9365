// The wrapper of every public OAuth endpoint (/oauth/*, the /.well-known documents): the request pipeline
// (lib/http/pipeline.ts) with the per-IP step (the API's token bucket and RateLimit-* headers, TRUSTED_PROXY_HOPS
// honoured by lib/http/client-ip.ts); the handler reads its own form or query. An OAuthError becomes the RFC's
// JSON error (a 429 too, as `temporarily_unavailable`), anything else the service's error contract.
// Responses are never cached (RFC 6749 5.1).
import { DomainError } from "../errors";
import { toErrorResult, type HttpResult } from "../http/errors";
import { byClientIp, pipeline, type Steps } from "../http/pipeline";
import { readBodyText } from "../http/read-body";
import { OAuthError } from "./errors";

/** OAuth request bodies are small forms or a small JSON registration. */
export const OAUTH_BODY_LIMIT_BYTES = 16 * 1024;

function oauthErrorResult(err: unknown, requestId: string): HttpResult {
  if (err instanceof OAuthError) return { status: err.status, body: err.body() };
  // A per-IP limit (the pipeline's, or registration's own): 429 with Retry-After, in OAuth's shape.
  if (err instanceof DomainError && err.code === "RATE_LIMITED")
    return { status: 429, body: { error: "temporarily_unavailable", error_description: err.message } };
  // A body that was too large, cut short or not UTF-8 (read-body.ts) is the client's malformed request.
  if (err instanceof DomainError && err.code === "VALIDATION_ERROR")
    return { status: 400, body: { error: "invalid_request", error_description: err.message } };
  return toErrorResult(err, requestId);
}

const OAUTH_PUBLIC: Steps<undefined> = {
  authenticate: byClientIp,
  claims: false,
  headers: { "Cache-Control": "no-store", Pragma: "no-cache" },
  errorResult: oauthErrorResult,
};

/** The handler answers with a JSON value (200) or a Response of its own; it opens its own transactions. */
export function publicRoute(handler: (req: Request, headers: Headers) => Promise<Response | unknown>) {
  return pipeline(OAUTH_PUBLIC, { rawInput: true, transaction: false }, ({ req, headers }) => handler(req, headers));
}

export function json(status: number, body: unknown, headers?: Headers): Response {
  const h = new Headers(headers);
  h.set("Content-Type", "application/json");
  return new Response(JSON.stringify(body), { status, headers: h });
}

/** An application/x-www-form-urlencoded body (RFC 6749 requires it at the token and revocation endpoints). */
export async function readForm(req: Request): Promise<URLSearchParams> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded")
    throw new OAuthError("invalid_request", "The body must be application/x-www-form-urlencoded.");
  const form = new URLSearchParams(await readBodyText(req, OAUTH_BODY_LIMIT_BYTES));
  // RFC 6749 3.1/3.2: parameters sent without a value are treated as omitted; none may be repeated.
  const seen = new Set<string>();
  for (const key of form.keys()) {
    if (seen.has(key)) throw new OAuthError("invalid_request", `The parameter '${key}' is repeated.`);
    seen.add(key);
  }
  return form;
}

/** A form parameter, or null when absent or empty. */
export function param(form: URLSearchParams, name: string): string | null {
  const value = form.get(name);
  return value === null || value === "" ? null : value;
}
