// dashboardApi(): the wrapper every dashboard route handler (/api/dashboard/**) is made with, the
// dashboard's counterpart of lib/http/api.ts. Steps, in order:
//   session (401) -> for mutations: Origin (403) + X-CSRF-Token (403) -> per-user rate limit (429)
//   -> JSON body + zod (400) -> Idempotency-Key claim (when sent; per user and mode, the API's store)
//   -> handler: mutations in ONE transaction with the stored response, reads on the pool.
// Errors come out in the SPEC section 7 contract ({ error: { code, message, details } }), through the
// same table as the API. Handlers call the same domain functions as /v1 with `scope`.
import type { z } from "zod";
import { getDb, sql, transaction, type Db } from "../db";
import { env } from "../env";
import { DomainError, ForbiddenError, NotFoundError, UnauthorizedError } from "../errors";
import { toErrorResult, type HttpResult } from "../http/errors";
import { claim, settleFailedClaim, storeResponse, validateIdempotencyKey } from "../idempotency/claims";
import { requestFingerprint } from "../idempotency/fingerprint";
import { enforceRateLimit } from "../http/rate-limit-step";
import { readJsonBody } from "../http/read-body";
import { createId } from "../ids";
import type { Scope } from "../scope";
import { isSameOrigin } from "../security/same-origin";
import { parseOrThrow } from "../validation/parse";
import { PATH_ID_PATTERN, rejectNul } from "../validation/text-safety";
import { CSRF_HEADER, verifyCsrfToken } from "./csrf";
import { MODE_HEADER, parseMode } from "./mode";
import { getDashboard, type Dashboard } from "./session";

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;
type RouteParams = Record<string, string>;

export interface DashboardContext<B> {
  /** The mutation's transaction, or the pool for a GET. */
  tx: Db;
  dashboard: Dashboard;
  /** The signed-in merchant in the page's mode: pass it to the domain function. */
  scope: Scope;
  body: B;
  params: RouteParams;
  /** The request's query string (reads such as an export take their filters from it). */
  query: URLSearchParams;
}

interface Options<B extends z.ZodType | undefined> {
  body?: B;
  /** Status of a successful result (default 200). */
  status?: number;
  /** The response carries a secret: its stored idempotent copy is encrypted at rest. */
  secretInResponse?: boolean;
}

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function dashboardApi<B extends z.ZodType | undefined = undefined>(
  options: Options<B>,
  handler: (ctx: DashboardContext<Infer<B>>) => Promise<unknown>,
) {
  return async (req: Request, nextContext?: { params: Promise<RouteParams> }): Promise<Response> => {
    const requestId = createId("request");
    const headers = new Headers({ "Request-Id": requestId, "Cache-Control": "no-store" });
    let claimId: string | null = null;
    try {
      const mutating = MUTATING.has(req.method);
      const modeHeader = req.headers.get(MODE_HEADER);
      const dashboard = await getDashboard(modeHeader ? parseMode(modeHeader) : undefined);
      if (!dashboard) throw new UnauthorizedError("Sign in to the dashboard first.");
      if (mutating) {
        if (!isSameOrigin(req)) throw new ForbiddenError("Cross-site request refused: the Origin header is not this dashboard.");
        if (!verifyCsrfToken(dashboard.sid, req.headers.get(CSRF_HEADER)))
          throw new ForbiddenError("Missing or invalid CSRF token: reload the page and try again.");
      }
      await enforceRateLimit(`dashboard:${dashboard.user.id}`, headers);

      const rawBody = mutating ? await readJsonBody(req, env.BODY_LIMIT_BYTES) : undefined;
      rejectNul(rawBody, "request body");
      const body = (options.body ? parseOrThrow(options.body, rawBody ?? {}) : undefined) as Infer<B>;
      const params = (await nextContext?.params) ?? {};
      if (Object.values(params).some((value) => !PATH_ID_PATTERN.test(value))) throw new NotFoundError("object");

      const context = { dashboard, scope: dashboard.scope, body, params, query: new URL(req.url).searchParams };
      if (!mutating) {
        const read = await handler({ ...context, tx: getDb() });
        // A download (say, a CSV export) answers with its own body and type; the wrapper adds its headers.
        if (read instanceof Response) {
          headers.forEach((value, name) => read.headers.set(name, value));
          return read;
        }
        return respond({ status: options.status ?? 200, body: read }, headers);
      }

      // A retried click (say, after a lost response) replays the first answer instead of refunding twice.
      const key = req.headers.get("idempotency-key");
      if (key !== null) {
        validateIdempotencyKey(key);
        const scope = { apiKeyId: `dashboard:${dashboard.user.id}`, livemode: dashboard.scope.livemode, key };
        const outcome = await claim(sql(), scope, requestFingerprint(req.method, new URL(req.url).pathname, rawBody));
        if (outcome.kind === "replay") {
          headers.set("Idempotent-Replayed", "true");
          headers.set("Content-Type", "application/json");
          return new Response(outcome.bodyText, { status: outcome.status, headers });
        }
        claimId = outcome.claimId;
      }
      const result = await transaction(async (tx): Promise<HttpResult> => {
        let outcome: HttpResult;
        try {
          outcome = { status: options.status ?? 200, body: await handler({ ...context, tx }) };
        } catch (err) {
          // As in the API: a decline's state commits, and the error is the answer.
          if (!(err instanceof DomainError && err.commitsState)) throw err;
          outcome = toErrorResult(err, requestId);
        }
        if (claimId) await storeResponse(tx, claimId, outcome.status, JSON.stringify(outcome.body), options.secretInResponse);
        return outcome;
      });
      return respond(result, headers);
    } catch (err) {
      const result = toErrorResult(err, requestId);
      if (claimId) await settleFailedClaim(claimId, result.status, result.body);
      return respond(result, headers);
    }
  };
}

function respond(result: HttpResult, headers: Headers): Response {
  headers.set("Content-Type", "application/json");
  return new Response(JSON.stringify(result.body), { status: result.status, headers });
}
