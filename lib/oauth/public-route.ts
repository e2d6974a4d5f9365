// The wrapper of every public OAuth endpoint (/oauth/*, the /.well-known documents): a token from the
// client IP's bucket (the API's token bucket and RateLimit-* headers, TRUSTED_PROXY_HOPS honoured by
// lib/http/client-ip.ts), then the handler; an OAuthError becomes the RFC's JSON error, anything else the
// service's error contract. Responses are never cached (RFC 6749 5.1).
import { DomainError } from "../errors";
import { clientIpKey } from "../http/client-ip";
import { toErrorResult } from "../http/errors";
import { enforceRateLimit } from "../http/rate-limit-step";
import { readBodyText } from "../http/read-body";
import { createId } from "../ids";
import { OAuthError } from "./errors";

/** OAuth request bodies are small forms or a small JSON registration. */
export const OAUTH_BODY_LIMIT_BYTES = 16 * 1024;

export function publicRoute(handler: (req: Request, headers: Headers) => Promise<Response | unknown>) {
  return async (req: Request): Promise<Response> => {
    const requestId = createId("request");
    const headers = new Headers({ "Request-Id": requestId, "Cache-Control": "no-store", Pragma: "no-cache" });
    try {
      await enforceRateLimit(`ip:${clientIpKey(req)}`, headers);
      const value = await handler(req, headers);
      if (value instanceof Response) {
        headers.forEach((v, k) => {
          if (!value.headers.has(k)) value.headers.set(k, v);
        });
        return value;
      }
      return json(200, value, headers);
    } catch (err) {
      if (err instanceof OAuthError) return json(err.status, err.body(), headers);
      // A body that was too large, cut short or not UTF-8 (read-body.ts) is the client's malformed request.
      if (err instanceof DomainError && err.code === "VALIDATION_ERROR")
        return json(400, { error: "invalid_request", error_description: err.message }, headers);
      const result = toErrorResult(err, requestId);
      return json(result.status, result.body, headers);
    }
  };
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
