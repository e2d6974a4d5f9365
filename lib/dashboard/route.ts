// dashboardApi(): the wrapper every dashboard route handler (/api/dashboard/**) is made with, the request
// pipeline (lib/http/pipeline.ts) composed with the dashboard's authentication step:
//   session (401) -> for mutations: Origin (403) + X-CSRF-Token (403) + the page's merchant (409) -> the
//   route's least role (403 role_required, details.role) -> in live mode, the second factor of owners and
//   admins (403 two_factor_required, two-factor-gate.ts) -> per-user rate limit (429)
//   -> the Idempotency-Key claim (when sent; per user, merchant and mode, in the API's store).
// The rest is the pipeline's: JSON body + zod (400), path ids (404), mutations in ONE transaction with the
// stored response, reads on the pool (a read may answer with its own Response, say a CSV download), errors in
// the API's error contract, and Cache-Control: no-store on every answer. Handlers call the same domain
// functions as /v1 with `scope`.
import type { z } from "zod";
import { sql, type Db } from "../db";
import { ConflictError, ForbiddenError, UnauthorizedError } from "../errors";
import { requireRole } from "../accounts/require-role";
import type { Role } from "../accounts/roles";
import { claim } from "../idempotency/claims";
import type { ClaimRequest } from "../http/idempotency-step";
import { MUTATING, pipeline, type Infer, type RouteParams, type Steps } from "../http/pipeline";
import { enforceRateLimit } from "../http/rate-limit-step";
import { originOf, type RequestOrigin } from "../accounts/activity";
import { clientIp } from "../http/client-ip";
import type { Scope } from "../scope";
import { isSameOrigin } from "../security/same-origin";
import { CSRF_HEADER, verifyCsrfToken } from "./csrf";
import { MERCHANT_HEADER } from "./merchant-header";
import { MODE_HEADER, parseMode } from "./mode";
import { getDashboard, type Dashboard } from "./session";
import { assertLiveWriteAllowed } from "./two-factor-gate";

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
  /** Where the request came from (IP, User-Agent), for the account activity log. */
  origin: RequestOrigin;
}

interface Options<B extends z.ZodType | undefined> {
  /** The least role that may call the route (lib/accounts/roles.ts; docs/dashboard.md, "Roles"). Required. */
  role: Role;
  body?: B;
  /** Status of a successful result (default 200). */
  status?: number;
  /** The response carries a secret: its stored idempotent copy is encrypted at rest. */
  secretInResponse?: boolean;
  /** The signed-in user's own account (two-factor sign-in itself), the same in both modes: no live-mode gate. */
  ownAccount?: true;
  /** false: `tx` is the pool and the handler opens its own transactions (say, to hash a password first). */
  transaction?: false;
}

/** The signed-in user (mutations: from this dashboard's origin, with its CSRF token), their token and the claim. */
async function bySession(req: Request, headers: Headers, claimRequest: ClaimRequest | undefined, role: Role, ownAccount: boolean) {
  const modeHeader = req.headers.get(MODE_HEADER);
  const dashboard = await getDashboard(modeHeader ? parseMode(modeHeader) : undefined);
  if (!dashboard) throw new UnauthorizedError("Sign in to the dashboard first.");
  if (MUTATING.has(req.method)) {
    if (!isSameOrigin(req)) throw new ForbiddenError("Cross-site request refused: the Origin header is not this dashboard.");
    if (!verifyCsrfToken(dashboard.sid, req.headers.get(CSRF_HEADER)))
      throw new ForbiddenError("Missing or invalid CSRF token: reload the page and try again.");
    // A tab still showing another merchant (switched in another tab) never acts on this one.
    const pageMerchant = req.headers.get(MERCHANT_HEADER);
    if (pageMerchant && pageMerchant !== dashboard.scope.merchantId)
      throw new ConflictError("The dashboard switched to another merchant in another tab: reload the page.", {
        reason: "merchant_switched",
      });
  }
  requireRole(dashboard, role);
  if (MUTATING.has(req.method) && !ownAccount) assertLiveWriteAllowed(dashboard, dashboard.scope.livemode);
  await enforceRateLimit(`dashboard:${dashboard.user.id}`, headers);
  if (!claimRequest) return { caller: dashboard };
  // A retried click (say, after a lost response) replays the first answer instead of refunding twice.
  const scope = {
    apiKeyId: `dashboard:${dashboard.user.id}:${dashboard.scope.merchantId}`,
    livemode: dashboard.scope.livemode,
    key: claimRequest.key,
  };
  return { caller: dashboard, claim: await claim(sql(), scope, claimRequest.fingerprint) };
}

const stepsFor = (role: Role, ownAccount: boolean): Steps<Dashboard> => ({
  authenticate: (req, headers, claimRequest) => bySession(req, headers, claimRequest, role, ownAccount),
  claims: true,
  headers: { "Cache-Control": "no-store" },
});

export function dashboardApi<B extends z.ZodType | undefined = undefined>(
  options: Options<B>,
  handler: (ctx: DashboardContext<Infer<B>>) => Promise<unknown>,
) {
  return pipeline<Dashboard, B, undefined, "prisma">(
    stepsFor(options.role, options.ownAccount === true),
    options,
    ({ tx, caller, body, params, req }) =>
      handler({
        tx,
        dashboard: caller,
        scope: caller.scope,
        body,
        params,
        query: new URL(req.url).searchParams,
        origin: originOf(req.headers, clientIp(req)),
      }),
  );
}
